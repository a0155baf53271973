package workspace

import (
	"io/fs"
	"path/filepath"
	"strings"
)

// tempMarker marks WriteFile's temporary files (".name.paige-123").
const tempMarker = ".paige-"

// isTempName reports whether name is one of WriteFile's temporary files
// (".NAME.paige-DIGITS"), which are renamed over their target and never
// reported.
func isTempName(name string) bool {
	i := strings.LastIndex(name, tempMarker)
	if i < 2 || name[0] != '.' {
		return false
	}
	digits := name[i+len(tempMarker):]
	return digits != "" && strings.Trim(digits, "0123456789") == ""
}

// removeLeftover removes the temporary file rel (d) that a save killed
// between creating it and renaming it over its target left beside the
// user's file. Only a regular file last written before this process's
// Workspace was made is removed: a save in progress (this process's, or
// another's since) is left to finish.
func (wt *Watcher) removeLeftover(rel string, d fs.DirEntry) {
	info, err := d.Info()
	if err != nil || !info.Mode().IsRegular() || !info.ModTime().Before(wt.ws.started) {
		return
	}
	if err := wt.ws.guard.fs.Remove(filepath.FromSlash(rel)); err != nil {
		wt.log.Warn("cannot remove a temporary file an interrupted save left", "path", rel, "err", err)
		return
	}
	wt.log.Info("removed a temporary file an interrupted save left", "path", rel)
}
