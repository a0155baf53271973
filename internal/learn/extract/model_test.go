package extract

import (
	"errors"
	"testing"

	"github.com/paige-dev/paige/internal/llm"
)

func TestNew(t *testing.T) {
	keyed := llm.New(llm.Options{APIKey: "k"})
	offline := llm.New(llm.Options{})
	tests := []struct {
		spec     string
		client   *llm.Client
		wantName string
		wantErr  bool
	}{
		{"", offline, "heuristic", false},
		{"heuristic", nil, "heuristic", false},
		{"haiku", keyed, "claude:claude-haiku-4-5-20251001", false},
		{"sonnet", keyed, "claude:claude-sonnet-4-5-20250929", false},
		{"claude:claude-opus-4-6", keyed, "claude:claude-opus-4-6", false},
		{"ollama:llama3.2", nil, "ollama:llama3.2", false},
		{"haiku", offline, "", true},
		{"ollama:", nil, "", true},
		{"gpt-4", keyed, "", true},
	}
	for _, tt := range tests {
		t.Run(tt.spec, func(t *testing.T) {
			x, err := New(tt.spec, tt.client, "", nil)
			if (err != nil) != tt.wantErr {
				t.Fatalf("err: got %v, want error %v", err, tt.wantErr)
			}
			if err == nil && x.Name() != tt.wantName {
				t.Errorf("name: got %q, want %q", x.Name(), tt.wantName)
			}
		})
	}
	if _, err := New("haiku", offline, "", nil); !errors.Is(err, llm.ErrNoModel) {
		t.Errorf("offline haiku: got %v, want ErrNoModel", err)
	}
}
