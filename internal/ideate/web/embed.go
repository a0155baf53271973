//go:build !no_ui

package web

import (
	"embed"
	"io/fs"

	"github.com/paige-dev/paige/internal/spa"
)

// dist is the Vite build of web/ghostpath (make web), committed with its source.
//
//go:embed all:dist
var dist embed.FS

// FS returns the built UI: index.html and assets/. Built with the no_ui tag it
// returns nil.
func FS() fs.FS { return spa.Dist(dist) }
