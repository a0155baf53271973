package classify

import (
	"strings"
	"testing"
	"unicode/utf8"

	"github.com/paige-dev/paige/internal/learn"
)

func TestBound(t *testing.T) {
	short := "I prefer pnpm."
	if Bound(short) != short {
		t.Errorf("short text changed")
	}
	lines := strings.Repeat("2024-05-01 INFO worker ok\n", 3*MaxTextBytes/26)
	oneLine := strings.Repeat("all good. ", 3*MaxTextBytes/10)
	noSpace := strings.Repeat("é", MaxTextBytes)
	for name, text := range map[string]string{"lines": lines, "one line": oneLine, "no space": noSpace} {
		b := Bound(text)
		if len(b) > MaxTextBytes || len(b) < MaxTextBytes/2 || !strings.HasPrefix(text, b) || !utf8.ValidString(b) {
			t.Errorf("%s: bound of %d bytes is %d bytes, prefix %v, valid %v", name, len(text), len(b), strings.HasPrefix(text, b), utf8.ValidString(b))
		}
	}
	if b := Bound(lines); !strings.HasSuffix(b, "ok") {
		t.Errorf("lines: not cut at a line break: %q", b[len(b)-10:])
	}
	if b := Bound(oneLine); !strings.HasSuffix(b, "good.") {
		t.Errorf("one line: not cut at a sentence end: %q", b[len(b)-10:])
	}
}

// TestHugeTurnClassifiedFromPrefix: a huge turn is classified by its
// bounded prefix: the instruction opening a pasted log counts, one buried
// past the bound does not.
func TestHugeTurnClassifiedFromPrefix(t *testing.T) {
	paste := strings.Repeat("2024-05-01T10:00:00Z DEBUG worker=7 request served in 3ms\n", 20*MaxTextBytes/58)
	head := learn.Turn{Role: learn.User, Content: "I prefer pnpm over npm.\n" + paste}
	if c := Classify(head); c.Type != learn.SignalPreference {
		t.Errorf("instruction before the paste: %+v", c)
	}
	buried := learn.Turn{Role: learn.User, Content: paste + "I prefer pnpm over npm."}
	if c := Classify(buried); c.Type == learn.SignalPreference {
		t.Errorf("instruction past the bound was classified: %+v", c)
	}
	if sigs := Signals(buried.Content); len(sigs) != 0 {
		t.Errorf("signals past the bound: %+v", sigs)
	}
	steps := paste + "To release: 1. tag 2. push"
	if procs, _ := Procedures(steps); len(procs) != 0 {
		t.Errorf("procedure past the bound: %+v", procs)
	}
}
