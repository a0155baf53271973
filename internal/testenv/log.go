package testenv

import (
	"log/slog"
	"strings"
	"testing"
)

// Logger is a text logger that writes each record, from level up, through
// tb.Log: a test's logs show with its failure (or with -v) and nowhere
// else.
func Logger(tb testing.TB, level slog.Level) *slog.Logger {
	return slog.New(slog.NewTextHandler(tbWriter{tb}, &slog.HandlerOptions{Level: level}))
}

// tbWriter writes each record through tb.Log.
type tbWriter struct{ tb testing.TB }

func (w tbWriter) Write(p []byte) (int, error) {
	w.tb.Log(strings.TrimSpace(string(p)))
	return len(p), nil
}
