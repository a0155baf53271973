package knowledge

import (
	"strings"
	"testing"

	"github.com/paige-dev/paige/internal/learn"
)

func TestRedact(t *testing.T) {
	tests := []struct{ name, in, want string }{
		{"private block", "use pnpm <private>my salary is 10</private>always", "use pnpm always"},
		{"unclosed private", "keep <PRIVATE>all of this", "keep "},
		{"anthropic key", "key sk-ant-api03-AbC_dEf-1234567890", "key [REDACTED]"},
		{"openai key", "OPENAI sk-proj-abcdefghijklmnopqrstuv", "OPENAI [REDACTED]"},
		{"github token", "token ghp_abcdefghijklmnopqrstuvwxyz0123", "token [REDACTED]"},
		{"aws key", "AKIAIOSFODNN7EXAMPLE is the id", "[REDACTED] is the id"},
		{"bearer", "Authorization: Bearer abc.def.ghi123", "Authorization: Bearer [REDACTED]"},
		{"password assignment", "db password=hunter22 ok", "db password=[REDACTED] ok"},
		{"json secret", `{"api_key": "xyz12345"}`, `{"api_key": "[REDACTED]"}`},
		{"env style", "DB_PASSWORD: s3cr3t", "DB_PASSWORD: [REDACTED]"},
		{"url credentials", "postgres://app:pa55@localhost/db", "postgres://app:[REDACTED]@localhost/db"},
		{"private key", "-----BEGIN RSA PRIVATE KEY-----\nMIIE\n-----END RSA PRIVATE KEY-----", "[REDACTED]"},
		{"jwt", "eyJhbGciOiJIUzI1NiJ9.eyJzdWIiOiIxMjM0NTY3ODkwIn0.dozjgNryP4J3jVmNHl0w5N", "[REDACTED]"},
		{"plain text untouched", "We always run tests before pushing", "We always run tests before pushing"},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			if got := Redact(tt.in); got != tt.want {
				t.Errorf("Redact(%q): got %q, want %q", tt.in, got, tt.want)
			}
		})
	}
}

func TestRedactTurn(t *testing.T) {
	tr := RedactTurn(learn.Turn{Content: "x <private>y</private>", ToolUse: []learn.ToolUse{{Input: `{"token":"abcdefgh1234"}`}},
		ToolResults: []learn.ToolResult{{Content: "AKIAIOSFODNN7EXAMPLE"}}})
	all := tr.Content + tr.ToolUse[0].Input + tr.ToolResults[0].Content
	for _, s := range []string{"<private>", "abcdefgh1234", "AKIA"} {
		if strings.Contains(all, s) {
			t.Errorf("turn keeps %q: %+v", s, tr)
		}
	}
}

func FuzzRedact(f *testing.F) {
	f.Add("a <private>b</private> sk-ant-abcdefghij password=x")
	f.Fuzz(func(t *testing.T, in string) {
		out := Redact(in)
		if strings.Contains(strings.ToLower(out), "<private>") {
			t.Errorf("Redact(%q) = %q keeps <private>", in, out)
		}
	})
}
