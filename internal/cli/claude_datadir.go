package cli

import (
	"context"
	"fmt"
	"path/filepath"
	"time"

	"github.com/paige-dev/paige/internal/config"
	"github.com/paige-dev/paige/internal/hook"
)

// absDataDir is dir made absolute, or dir when that fails.
func absDataDir(dir string) string {
	if abs, err := filepath.Abs(dir); err == nil {
		return abs
	}
	return dir
}

// checkDataDirAgreement is doctor's check that the server on PORT, when
// running, uses doctor's DATA_DIR (which is what the hooks use when they run
// with the same environment).
func checkDataDirAgreement(ctx context.Context, cfg config.Config) check {
	c := check{name: "serve DATA_DIR"}
	id, running := hook.ServerDataDir(ctx, cfg.Port, 2*time.Second)
	switch {
	case !running:
		c.ok, c.detail = true, fmt.Sprintf("no Paige server on port %d to compare with", cfg.Port)
	case id == "":
		c.ok, c.detail = true, "the server on port "+fmt.Sprint(cfg.Port)+" does not report its DATA_DIR"
	case id == hook.DataDirID(cfg.DataDir):
		c.ok, c.detail = true, "the server and the hooks use "+absDataDir(cfg.DataDir)
	default:
		c.detail = fmt.Sprintf("paige serve on port %d uses another DATA_DIR than %s (the hooks' with this environment)", cfg.Port, absDataDir(cfg.DataDir))
		c.fix = "run paige serve and Claude Code with the same DATA_DIR (export it in your shell profile, not only in a project .env)"
	}
	return c
}
