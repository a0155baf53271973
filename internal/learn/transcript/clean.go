package transcript

import (
	"regexp"
	"strings"
	"unicode/utf8"
)

// dropTags are harness or IDE wrappers removed together with their content:
// they are written by Claude Code or the editor, not by the user.
var dropTags = []string{
	"system-reminder",
	"command-name", "command-message",
	"local-command-stdout", "local-command-stderr", "local-command-caveat",
	"bash-stdout", "bash-stderr",
	"ide_opened_file", "ide_selection", "ide_diagnostics", "ide_context",
	"user-prompt-submit-hook", "session-start-hook",
}

// unwrapTags lose their tags but keep their content: <command-args> holds
// what the user typed after a slash command, which is the user's own words.
var unwrapTags = []string{"command-args", "bash-input"}

// compactionOpening is how Claude Code opens the summary it writes when it
// compacts a conversation; older versions mark the line with nothing else.
const compactionOpening = "This session is being continued from a previous conversation"

// IsCompactionSummary reports whether text is Claude Code's compaction
// summary of earlier turns (Claude's words, not the user's).
func IsCompactionSummary(text string) bool {
	return strings.HasPrefix(strings.TrimSpace(text), compactionOpening)
}

// harnessLines are whole-line markers Claude Code inserts into user turns.
var harnessLines = []string{
	"[Request interrupted by user for tool use]",
	"[Request interrupted by user]",
}

var (
	dropRe   = tagPairs(dropTags)
	unwrapRe = tagPairs(unwrapTags)
	// openRe matches a dropped tag left open (a truncated wrapper): it and
	// everything after it go.
	openRe   = regexp.MustCompile(`(?s)<(?:` + strings.Join(dropTags, "|") + `)(?:\s[^>]*)?>.*$`)
	blanksRe = regexp.MustCompile(`\n{3,}`)
)

func tagPairs(tags []string) *regexp.Regexp {
	alt := strings.Join(tags, "|")
	return regexp.MustCompile(`(?s)<(` + alt + `)(?:\s[^>]*)?>(.*?)</(?:` + alt + `)>`)
}

// Clean removes harness and IDE wrappers (system reminders, slash-command
// tags, local command output, IDE file and selection tags) and interruption
// markers from text, and trims it. Text without a '<' or '[' is returned
// trimmed without further work.
func Clean(s string) string {
	if !strings.ContainsAny(s, "<[") {
		return strings.TrimSpace(s)
	}
	s = dropRe.ReplaceAllString(s, "")
	s = unwrapRe.ReplaceAllString(s, "$2")
	s = openRe.ReplaceAllString(s, "")
	for _, m := range harnessLines {
		s = strings.ReplaceAll(s, m, "")
	}
	s = blanksRe.ReplaceAllString(s, "\n\n")
	return strings.TrimSpace(s)
}

// truncate cuts s to at most n runes.
func truncate(s string, n int) string {
	if len(s) <= n {
		return s
	}
	i, count := 0, 0
	for i < len(s) && count < n {
		_, size := utf8.DecodeRuneInString(s[i:])
		i += size
		count++
	}
	return s[:i]
}

// truncateBytes cuts s to at most n bytes without splitting a rune.
func truncateBytes(s string, n int) string {
	if len(s) <= n {
		return s
	}
	for n > 0 && !utf8.RuneStart(s[n]) {
		n--
	}
	return s[:n]
}
