//go:build !unix

package hook

import (
	"os"
	"time"
)

// readFileWithin is [ReadInputWithin]'s way for files where poll(2) is
// available; here it never is (ok is false).
func readFileWithin(*os.File, time.Duration) (in Input, ok bool, err error) {
	return Input{}, false, nil
}
