// Package spatest checks, in tests, the committed Vite build a UI package
// embeds and serves with package spa.
package spatest

import (
	"io/fs"
	"regexp"
	"strings"
	"testing"
)

var refRE = regexp.MustCompile(`(?:src|href)="([^"]+)"`)

// CheckBuild checks the built UI fsys served under prefix: index.html
// exists, and every src or href it holds is a file of fsys under prefix,
// never another host (everything the page loads comes from the binary).
// Each failure is reported on tb. It returns the referenced file names
// (relative to fsys), and skips tb when fsys is nil (a no_ui build).
func CheckBuild(tb testing.TB, fsys fs.FS, prefix string) []string {
	tb.Helper()
	if fsys == nil {
		tb.Skip("built with no_ui")
	}
	index, err := fs.ReadFile(fsys, "index.html")
	if err != nil {
		tb.Fatalf("read index.html: %v", err)
	}
	var names []string
	for _, m := range refRE.FindAllStringSubmatch(string(index), -1) {
		ref := m[1]
		name, ok := strings.CutPrefix(ref, prefix)
		if !ok || strings.Contains(ref, "//") || strings.HasPrefix(ref, "data:") {
			tb.Errorf("index.html loads %s from elsewhere: everything must come from the binary under %s", ref, prefix)
			continue
		}
		if _, err := fs.Stat(fsys, name); err != nil {
			tb.Errorf("index.html references %s: %v", ref, err)
			continue
		}
		names = append(names, name)
	}
	return names
}
