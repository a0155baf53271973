package dashboard

import (
	"os"
	"path/filepath"
	"testing"

	"github.com/paige-dev/paige/internal/coach/prompts/issueassessment"
)

func TestStackFromNames(t *testing.T) {
	t.Parallel()
	tests := []struct {
		names []string
		want  string
	}{
		{nil, "unknown"},
		{[]string{"README.md", "src"}, "unknown"},
		{[]string{"package.json", "tsconfig.json", "src"}, "TypeScript, JavaScript/Node.js"},
		{[]string{"go.mod", "Dockerfile"}, "Go, Docker"},
		{[]string{"requirements.txt", "pyproject.toml"}, "Python"},
	}
	for _, tt := range tests {
		if got := StackFromNames(tt.names); got != tt.want {
			t.Errorf("StackFromNames(%v): got %q, want %q", tt.names, got, tt.want)
		}
	}
	dir := t.TempDir()
	os.WriteFile(filepath.Join(dir, "Cargo.toml"), nil, 0o644)
	if got := TechStack(dir); got != "Rust" {
		t.Errorf("TechStack: got %q, want Rust", got)
	}
	if got := TechStack(filepath.Join(dir, "missing")); got != "unknown" {
		t.Errorf("TechStack(missing): got %q, want unknown", got)
	}
}

func TestOverallStage(t *testing.T) {
	t.Parallel()
	st := func(stages ...string) []issueassessment.Stage {
		var out []issueassessment.Stage
		for _, s := range stages {
			out = append(out, issueassessment.Stage{Stage: s})
		}
		return out
	}
	tests := []struct {
		in   []issueassessment.Stage
		want string
	}{
		{nil, "novice"},
		{st("bogus"), "novice"},
		{st("expert"), "expert"},
		{st("novice", "expert"), "novice"},
		{st("expert", "competent", "novice"), "competent"},
		{st("proficient", "competent", "expert", "advanced_beginner"), "competent"},
	}
	for _, tt := range tests {
		if got := OverallStage(tt.in); got != tt.want {
			t.Errorf("OverallStage(%v): got %q, want %q", tt.in, got, tt.want)
		}
	}
}
