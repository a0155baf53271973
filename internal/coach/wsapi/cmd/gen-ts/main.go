// Command gen-ts writes the workbench's TypeScript protocol types
// (package tsgen) to the file named by -o.
package main

import (
	"flag"
	"fmt"
	"os"
	"path/filepath"

	"github.com/paige-dev/paige/internal/coach/wsapi/tsgen"
)

func main() {
	out := flag.String("o", tsgen.Path, "output file")
	flag.Parse()
	if err := os.MkdirAll(filepath.Dir(*out), 0o755); err != nil {
		fmt.Fprintln(os.Stderr, "gen-ts:", err)
		os.Exit(1)
	}
	if err := os.WriteFile(*out, tsgen.Generate(), 0o644); err != nil {
		fmt.Fprintln(os.Stderr, "gen-ts:", err)
		os.Exit(1)
	}
}
