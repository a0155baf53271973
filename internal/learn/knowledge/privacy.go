package knowledge

import (
	"regexp"

	"github.com/paige-dev/paige/internal/learn"
)

// Redacted replaces every secret [Redact] finds.
const Redacted = "[REDACTED]"

var (
	privateRe     = regexp.MustCompile(`(?is)<private>.*?</private>`)
	privateOpenRe = regexp.MustCompile(`(?is)<private>.*$`)
	secretRes     = []*regexp.Regexp{
		regexp.MustCompile(`-----BEGIN [A-Z ]*PRIVATE KEY-----[\s\S]*?(-----END [A-Z ]*PRIVATE KEY-----|$)`),
		regexp.MustCompile(`\bsk-ant-[A-Za-z0-9_\-]{8,}`),
		regexp.MustCompile(`\bsk-(proj-)?[A-Za-z0-9_\-]{16,}`),
		regexp.MustCompile(`\b(ghp|gho|ghu|ghs|ghr)_[A-Za-z0-9]{16,}`),
		regexp.MustCompile(`\bgithub_pat_[A-Za-z0-9_]{16,}`),
		regexp.MustCompile(`\b(AKIA|ASIA)[0-9A-Z]{16}\b`),
		regexp.MustCompile(`\bxox[abprs]-[A-Za-z0-9\-]{10,}`),
		regexp.MustCompile(`\bAIza[0-9A-Za-z_\-]{30,}`),
		regexp.MustCompile(`\beyJ[A-Za-z0-9_\-]{8,}\.eyJ[A-Za-z0-9_\-]{8,}\.[A-Za-z0-9_\-]{8,}`),
	}
	bearerRe  = regexp.MustCompile(`(?i)\b(bearer|token)(\s+)[A-Za-z0-9._~+/=\-]{8,}`)
	assignRe  = regexp.MustCompile(`(?i)\b([a-z0-9_\-]*(?:password|passwd|pwd|secret|token|api[_\-]?key|access[_\-]?key|private[_\-]?key|auth))(["']?\s*[:=]\s*["']?)[^\s"',;]+`)
	urlCredRe = regexp.MustCompile(`\b([a-z][a-z0-9+.\-]*://[^/\s:@]+):[^@\s/]+@`)
)

// Redact removes <private>…</private> blocks (an unclosed <private> hides
// the rest of the text) and replaces API keys (Anthropic, OpenAI, GitHub,
// AWS, Slack, Google), JWTs, private key blocks, bearer tokens, credentials
// in URLs and password=/token:/api_key= style assignments with [Redacted].
func Redact(s string) string {
	s = privateRe.ReplaceAllString(s, "")
	s = privateOpenRe.ReplaceAllString(s, "")
	for _, re := range secretRes {
		s = re.ReplaceAllString(s, Redacted)
	}
	s = bearerRe.ReplaceAllString(s, "${1}${2}"+Redacted)
	s = assignRe.ReplaceAllString(s, "${1}${2}"+Redacted)
	s = urlCredRe.ReplaceAllString(s, "${1}:"+Redacted+"@")
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
