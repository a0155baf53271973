package prompts_test

import (
	"strings"
	"testing"
	"unicode/utf8"

	"github.com/paige-dev/paige/internal/coach/prompts"
)

func TestTruncate(t *testing.T) {
	tests := []struct {
		name, in string
		max      int
		want     string
	}{
		{"short", "hello", 10, "hello"},
		{"exact", "hello", 5, "hello"},
		{"cut", "hello world", 5, "hello […truncated 6 chars]"},
		{"rune boundary", "héllo", 2, "h […truncated 5 chars]"},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			if got := prompts.Truncate(tt.in, tt.max); got != tt.want {
				t.Errorf("Truncate(%q, %d): got %q, want %q", tt.in, tt.max, got, tt.want)
			}
		})
	}
}

func TestTruncateMiddle(t *testing.T) {
	in := strings.Repeat("a", 100) + strings.Repeat("é", 100) + strings.Repeat("z", 100)
	got := prompts.TruncateMiddle(in, 100)
	if !utf8.ValidString(got) {
		t.Fatal("cut inside a rune")
	}
	if !strings.HasPrefix(got, strings.Repeat("a", 25)) || !strings.HasSuffix(got, strings.Repeat("z", 75)) {
		t.Errorf("keeps the first quarter and the last three quarters: got %q", got)
	}
	if !strings.Contains(got, "chars omitted") {
		t.Errorf("marker missing: %q", got)
	}
	if got := prompts.TruncateMiddle("short", 100); got != "short" {
		t.Errorf("short input changed: %q", got)
	}
}

func TestJSONAndList(t *testing.T) {
	if got, want := prompts.JSON(map[string]any{"code": "a < b && c > d", "l": prompts.List[string](nil)}), `{"code":"a < b && c > d","l":[]}`; got != want {
		t.Errorf("JSON: got %s, want %s", got, want)
	}
	if got := prompts.JSON(map[string]any{"f": func() {}}); !strings.HasPrefix(got, `{"error":`) {
		t.Errorf("unmarshalable: got %s", got)
	}
}

func FuzzTruncateMiddle(f *testing.F) {
	f.Add("hello wörld, a long transcript", 7)
	f.Add("", 0)
	f.Fuzz(func(t *testing.T, s string, max int) {
		if max < 0 || max > 1<<20 {
			return
		}
		got := prompts.TruncateMiddle(s, max)
		if len(s) <= max && got != s {
			t.Errorf("changed a short input")
		}
		if utf8.ValidString(s) && !utf8.ValidString(got) {
			t.Errorf("produced invalid UTF-8 from %q", s)
		}
		_ = prompts.Truncate(s, max)
	})
}

func TestForStage(t *testing.T) {
	for _, tt := range []struct{ stage, want string }{{"", "stage novice, novice"}, {"expert", "stage expert, expert"}} {
		if got := prompts.ForStage("stage {dreyfus_stage}, {dreyfus_stage}", tt.stage); got != tt.want {
			t.Errorf("ForStage(%q): got %q, want %q", tt.stage, got, tt.want)
		}
	}
}
