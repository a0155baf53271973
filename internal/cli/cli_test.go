package cli

import (
	"bytes"
	"context"
	"errors"
	"path/filepath"
	"strings"
	"testing"
)

// mapEnv returns a getenv over m.
func mapEnv(m map[string]string) func(string) string {
	return func(k string) string { return m[k] }
}

// TestVersion: `paige version` and `paige --version` print the same line.
func TestVersion(t *testing.T) {
	for _, args := range [][]string{{"version"}, {"--version"}} {
		var out bytes.Buffer
		if err := Run(context.Background(), args, mapEnv(nil), nil, &out, &out); err != nil {
			t.Fatalf("%v: %v", args, err)
		}
		if got, want := out.String(), "paige "+Version+"\n"; got != want {
			t.Errorf("%v printed %q, want %q", args, got, want)
		}
	}
}

func TestServeValidation(t *testing.T) {
	tmp := t.TempDir()
	tests := []struct {
		name string
		env  map[string]string
		want []string
	}{
		{"both missing", map[string]string{"HOME": tmp}, []string{"PROJECT_DIR", "ANTHROPIC_API_KEY"}},
		{"key missing", map[string]string{"HOME": tmp, "PROJECT_DIR": tmp}, []string{"ANTHROPIC_API_KEY"}},
		{"project empty", map[string]string{"HOME": tmp, "PROJECT_DIR": "  ", "ANTHROPIC_API_KEY": "k"}, []string{"PROJECT_DIR"}},
		{"project absent", map[string]string{"HOME": tmp, "PROJECT_DIR": filepath.Join(tmp, "nope"), "PAIGE_OFFLINE": "1"}, []string{"does not exist", "nope"}},
		{"bad port", map[string]string{"HOME": tmp, "PORT": "http"}, []string{"PORT"}},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			var out bytes.Buffer
			err := Run(context.Background(), []string{"serve"}, mapEnv(tt.env), nil, &out, &out)
			var exit *ExitError
			if !errors.As(err, &exit) || exit.Code != 1 {
				t.Fatalf("err = %v, want exit 1", err)
			}
			for _, w := range tt.want {
				if !strings.Contains(err.Error(), w) {
					t.Errorf("error %q does not mention %q", err, w)
				}
			}
		})
	}
}
