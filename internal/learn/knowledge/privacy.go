package knowledge

import (
	"regexp"
	"strings"

	"github.com/paige-dev/paige/internal/learn"
)

// Redacted replaces every secret [Redact] finds.
const Redacted = "[REDACTED]"

// guarded is a secret pattern with a cheap test on the lower-cased text
// that must pass before the regexp runs (most text has no secrets).
type guarded struct {
	hints []string // the pattern needs one of these in the lower-cased text
	re    *regexp.Regexp
	repl  string
}

var (
	privateRe     = regexp.MustCompile(`(?is)<private>.*?</private>`)
	privateOpenRe = regexp.MustCompile(`(?is)<private>.*$`)
	secretRes     = []guarded{
		{[]string{"private key"}, regexp.MustCompile(`-----BEGIN [A-Z ]*PRIVATE KEY-----[\s\S]*?(-----END [A-Z ]*PRIVATE KEY-----|$)`), Redacted},
		{[]string{"sk-"}, regexp.MustCompile(`\bsk-ant-[A-Za-z0-9_\-]{8,}`), Redacted},
		{[]string{"sk-"}, regexp.MustCompile(`\bsk-(proj-)?[A-Za-z0-9_\-]{16,}`), Redacted},
		{[]string{"ghp_", "gho_", "ghu_", "ghs_", "ghr_"}, regexp.MustCompile(`\b(ghp|gho|ghu|ghs|ghr)_[A-Za-z0-9]{16,}`), Redacted},
		{[]string{"github_pat_"}, regexp.MustCompile(`\bgithub_pat_[A-Za-z0-9_]{16,}`), Redacted},
		{[]string{"akia", "asia"}, regexp.MustCompile(`\b(AKIA|ASIA)[0-9A-Z]{16}\b`), Redacted},
		{[]string{"xox"}, regexp.MustCompile(`\bxox[abprs]-[A-Za-z0-9\-]{10,}`), Redacted},
		{[]string{"aiza"}, regexp.MustCompile(`\bAIza[0-9A-Za-z_\-]{30,}`), Redacted},
		{[]string{"eyj"}, regexp.MustCompile(`\beyJ[A-Za-z0-9_\-]{8,}\.eyJ[A-Za-z0-9_\-]{8,}\.[A-Za-z0-9_\-]{8,}`), Redacted},
		{[]string{"bearer"}, regexp.MustCompile(`(?i)\b(bearer)(\s+)[A-Za-z0-9._~+/=\-]{8,}`), "${1}${2}" + Redacted},
		{[]string{"token"}, regexp.MustCompile(`(?i)\b(token)(\s+)[A-Za-z0-9._~+/=\-]{8,}`), "${1}${2}" + Redacted},
		{[]string{"://"}, regexp.MustCompile(`\b([a-z][a-z0-9+.\-]*://[^/\s:@]+):[^@\s/]+@`), "${1}:" + Redacted + "@"},
	}
	assignHints = []string{"pass", "pwd", "secret", "token", "key", "auth"}
	assignRe    = regexp.MustCompile(`(?i)\b([a-z0-9_\-]*(?:password|passwd|pwd|secret|token|api[_\-]?key|access[_\-]?key|private[_\-]?key|auth))(["']?\s*[:=]\s*["']?)[^\s"',;]+`)
)

// Redact removes <private>…</private> blocks (an unclosed <private> hides
// the rest of the text) and replaces API keys (Anthropic, OpenAI, GitHub,
// AWS, Slack, Google), JWTs, private key blocks, bearer tokens, credentials
// in URLs and password=/token:/api_key= style assignments with [Redacted].
func Redact(s string) string {
	lower := strings.ToLower(s)
	if strings.Contains(lower, "<private>") {
		s = privateRe.ReplaceAllString(s, "")
		s = privateOpenRe.ReplaceAllString(s, "")
		lower = strings.ToLower(s)
	}
	for _, g := range secretRes {
		for _, h := range g.hints {
			if strings.Contains(lower, h) {
				s = g.re.ReplaceAllString(s, g.repl)
				break
			}
		}
	}
	if strings.ContainsAny(lower, ":=") {
		for _, h := range assignHints {
			if strings.Contains(lower, h) {
				s = assignRe.ReplaceAllString(s, "${1}${2}"+Redacted)
				break
			}
		}
	}
	return s
}

// RedactEntry returns e with Content, Evidence and Entities redacted.
func RedactEntry(e learn.Entry) learn.Entry {
	e.Content = Redact(e.Content)
	e.Evidence = Redact(e.Evidence)
	if len(e.Entities) > 0 {
		ents := make([]string, 0, len(e.Entities))
		for _, x := range e.Entities {
			if r := Redact(x); r != "" {
				ents = append(ents, r)
			}
		}
		e.Entities = ents
	}
	return e
}

// RedactTurn returns t with its text, tool inputs and tool results redacted,
// so secrets never reach an extractor.
func RedactTurn(t learn.Turn) learn.Turn {
	t.Content = Redact(t.Content)
	if len(t.ToolUse) > 0 {
		uses := make([]learn.ToolUse, len(t.ToolUse))
		for i, u := range t.ToolUse {
			u.Input = Redact(u.Input)
			uses[i] = u
		}
		t.ToolUse = uses
	}
	if len(t.ToolResults) > 0 {
		res := make([]learn.ToolResult, len(t.ToolResults))
		for i, r := range t.ToolResults {
			r.Content = Redact(r.Content)
			res[i] = r
		}
		t.ToolResults = res
	}
	return t
}
