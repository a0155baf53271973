package claudecode

import (
	"errors"
	"fmt"
	"strings"
)

// Mode values of PAIGE_MODE, which says when PreToolUse enforces read-only.
const (
	ModeAuto  = "auto"  // default: enforce while an active coaching session covers the cwd
	ModeCoach = "coach" // always enforce (the coaching session is assumed)
	ModeOff   = "off"   // never enforce
)

// ErrBadMode is returned by [ParseMode] for an unknown PAIGE_MODE.
var ErrBadMode = errors.New("claudecode: PAIGE_MODE must be auto, coach or off")

// ParseMode normalises a PAIGE_MODE value; empty means [ModeAuto].
func ParseMode(s string) (string, error) {
	switch m := strings.ToLower(strings.TrimSpace(s)); m {
	case "", ModeAuto:
		return ModeAuto, nil
	case ModeCoach, "coaching", "on":
		return ModeCoach, nil
	case ModeOff, "none":
		return ModeOff, nil
	}
	return ModeAuto, fmt.Errorf("%w, got %q", ErrBadMode, s)
}
