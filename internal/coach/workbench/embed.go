//go:build !no_ui

package workbench

import (
	"embed"
	"io/fs"
)

// dist is the Vite build of web/workbench, committed with its source.
//
//go:embed all:dist
var dist embed.FS

// FS returns the built workbench: index.html and assets/. Built with the
// no_ui tag it returns nil.
func FS() fs.FS {
	sub, err := fs.Sub(dist, "dist")
	if err != nil {
		panic("workbench: embedded dist missing: " + err.Error()) // cannot happen: dist is embedded above
	}
	return sub
}
