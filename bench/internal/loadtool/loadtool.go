// Package loadtool is the command-line plumbing the load generators under
// bench/ share: a flag set that rejects positional arguments, the loopback
// check on -url, and the exit codes (0 clean, 1 when the run fails, 2 for
// flags it refuses).
package loadtool

import (
	"context"
	"errors"
	"flag"
	"fmt"
	"io"
	"net"
	"net/url"
	"os"
	"os/signal"
)

// Parse parses args with fs, which defines the tool's flags, and refuses
// positional arguments. fs's usage and errors go to its output.
func Parse(fs *flag.FlagSet, args []string) error {
	if err := fs.Parse(args); err != nil {
		return err
	}
	if fs.NArg() > 0 {
		return fmt.Errorf("unexpected arguments %q", fs.Args())
	}
	return nil
}

// NewFlagSet is an empty flag set named name that reports errors (rather
// than exiting) and writes its usage to stderr.
func NewFlagSet(name string, stderr io.Writer) *flag.FlagSet {
	fs := flag.NewFlagSet(name, flag.ContinueOnError)
	fs.SetOutput(stderr)
	return fs
}

// CheckLoopback accepts a URL of scheme (for example "http" or "ws") whose
// host is localhost or a loopback IP; a refusal names -url and says want,
// the kind of URL expected (for example "an http:// URL").
func CheckLoopback(raw, scheme, want string) error {
	u, err := url.Parse(raw)
	if err != nil {
		return fmt.Errorf("-url: %w", err)
	}
	if u.Scheme != scheme {
		return fmt.Errorf("-url %q: want %s", raw, want)
	}
	host := u.Hostname()
	if ip := net.ParseIP(host); host != "localhost" && (ip == nil || !ip.IsLoopback()) {
		return fmt.Errorf("-url %q: only loopback hosts (127.0.0.1, ::1, localhost) are allowed", raw)
	}
	return nil
}

// Main is a load tool's exit code. parseErr is what reading its flags
// gave: any error but flag.ErrHelp (whose usage fs has printed already) is
// printed to stderr after name, and the code is 2. Otherwise run is called
// with a context cancelled on interrupt; its error is printed the same way
// and the code is 1, or 0 when it returns nil.
func Main(name string, stderr io.Writer, parseErr error, run func(context.Context) error) int {
	if parseErr != nil {
		if !errors.Is(parseErr, flag.ErrHelp) {
			fmt.Fprintln(stderr, name+":", parseErr)
		}
		return 2
	}
	ctx, stop := signal.NotifyContext(context.Background(), os.Interrupt)
	defer stop()
	if err := run(ctx); err != nil {
		fmt.Fprintln(stderr, name+":", err)
		return 1
	}
	return 0
}
