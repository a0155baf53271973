// Command paige is the single binary of Paige: the coaching server, GhostPath,
// shadow learning and the personal seed. All behaviour lives in
// [github.com/paige-dev/paige/internal/cli]; main only hands it the process.
package main

import (
	"context"
	"errors"
	"fmt"
	"os"
	"os/signal"
	"syscall"

	"github.com/paige-dev/paige/internal/cli"
)

func main() {
	ctx, stop := signal.NotifyContext(context.Background(), os.Interrupt, syscall.SIGTERM)
	err := cli.Run(ctx, os.Args[1:], os.Getenv, os.Stdin, os.Stdout, os.Stderr)
	stop()
	if err != nil {
		var exit *cli.ExitError
		if errors.As(err, &exit) {
			if exit.Err != nil {
				fmt.Fprintln(os.Stderr, "paige:", exit.Err)
			}
			os.Exit(exit.Code)
		}
		fmt.Fprintln(os.Stderr, "paige:", err)
		os.Exit(1)
	}
}
