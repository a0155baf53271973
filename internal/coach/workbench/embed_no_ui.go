//go:build no_ui

package workbench

import "io/fs"

// FS returns nil: this binary was built with the no_ui tag and carries no UI.
func FS() fs.FS { return nil }
