// Package hook is the SessionStart hook Claude Code runs at the start of
// every session: it prints the personal seed as the session's context,
// records the session in the seed when asked, notes the plugin it runs from,
// warns when `paige serve` uses another DATA_DIR, and adds the coaching
// state when a coaching marker says a session is active for its directory. `paige hook
// session-start` (internal/cli) and the small `paige-hook` binary
// (cmd/paige-hook, what the plugin runs) are two doors to this one
// implementation.
//
// The package links only what that needs (the seed, the configuration, the
// coaching markers, the standard library; never SQLite), because the process it runs in starts once per Claude
// Code session: every package linked costs start-up time and memory (see
// docs/performance.md). It also owns the pieces of the hook protocol the
// other hooks share: Claude Code's hook input ([Input]), the plugin record
// ([PluginSeen]) and the DATA_DIR probe ([ServerDataDir]).
//
// Hooks never fail Claude Code: every problem is one readable line and the
// process exits 0 ([Guard] turns even a panic into such a line).
package hook

import (
	"fmt"
	"io"
)

// Guard runs fn and returns its error; a panic in fn becomes the stderr line
// "paige hook <name>: internal error: <value>" and a nil error, so a hook
// never fails Claude Code. It is the one recover of Paige's hooks, at the
// command's edge: library code returns errors and does not recover.
func Guard(stderr io.Writer, name string, fn func() error) (err error) {
	defer func() {
		if r := recover(); r != nil {
			fmt.Fprintf(stderr, "paige hook %s: internal error: %v\n", name, r)
			err = nil
		}
	}()
	return fn()
}
