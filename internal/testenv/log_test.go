package testenv

import (
	"log/slog"
	"strings"
	"testing"
)

// logTB records what is logged through it.
type logTB struct {
	testing.TB
	lines []string
}

func (r *logTB) Log(args ...any) {
	for _, a := range args {
		r.lines = append(r.lines, a.(string))
	}
}

func TestLogger(t *testing.T) {
	rec := &logTB{TB: t}
	log := Logger(rec, slog.LevelInfo)
	log.Debug("hidden")
	log.Info("shown", "k", 1)
	if len(rec.lines) != 1 || !strings.HasSuffix(rec.lines[0], "msg=shown k=1") || strings.HasSuffix(rec.lines[0], "\n") {
		t.Errorf("logged %q, want one trimmed line for the info record", rec.lines)
	}
}
