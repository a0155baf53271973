// Package plugin embeds the Claude Code plugin's skills and output styles,
// so that a paige binary can lay them out wherever it builds a plugin (the
// workbench terminal's kit) without the repository at hand.
package plugin

import "embed"

// Content holds skills/<name>/SKILL.md and output-styles/*.md, with those
// paths.
//
//go:embed skills output-styles
var Content embed.FS
