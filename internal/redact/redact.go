// Package redact removes secrets from text before Paige stores it or sends
// it to a model. It is the project's one redaction: every path that persists
// text (seed learnings and proposals, coach session titles and action
// payloads, learn knowledge entries, extraction input and chat history,
// memories) calls [String] or [JSON] at its store boundary. It is core: it
// imports no capability and does no I/O.
//
// # What is redacted
//
//   - <private>…</private> blocks (case-insensitive, multi-line); an
//     unclosed <private> hides the rest of the text.
//   - PEM private key blocks (-----BEGIN … PRIVATE KEY----- to the matching
//     END line, or the end of the text). Certificates and public keys stay.
//   - Provider keys: Anthropic sk-ant-…, OpenAI sk-… / sk-proj-…, Stripe
//     sk_live_ / rk_live_ / sk_test_ / rk_test_ / whsec_, GitHub ghp_ gho_
//     ghu_ ghs_ ghr_ github_pat_, GitLab glpat- (and runner, deploy,
//     trigger tokens), AWS access key ids AKIA… / ASIA…, Slack xox?- and
//     xapp- tokens and webhook URLs, Google AIza… and GOCSPX-…, Hugging
//     Face hf_, SendGrid SG.….…, npm npm_, PyPI pypi-AgE…, DigitalOcean
//     dop_v1_ / doo_v1_ / dor_v1_, Databricks dapi…, Shopify shpat_…,
//     Postman PMAK-, Linear lin_api_, age AGE-SECRET-KEY-1…, Telegram bot
//     tokens, JWTs (eyJ….eyJ….sig) (providers.go).
//   - Passwords on command lines and in .netrc: mysql -pX, curl -u
//     user:X, docker login -p X / --password X, machine … password X.
//   - Credentials in URLs (scheme://user:password@host, scheme://:password@host), Bearer tokens,
//     Authorization header values and "token <credential>".
//   - Assignments in code and configuration whose name says secret
//     (password, passwd, passphrase, *_pass, *_pwd, secret, *_token,
//     api_key, access_key, private_key, aws_secret_access_key, …) with a
//     literal value: password = "x", PASSWORD=x, api_token: x,
//     "secret": "x", export API_KEY=…, X-Api-Key: ….
//   - Plain language: "the password is hunter2", "my token is abc123",
//     "my passphrase is …", "my PIN is 4821".
//
// # What is not
//
// Prose that merely mentions secrets ("reset the password field", "the
// token bucket algorithm"), words that contain a prefix ("task-list"),
// empty values (password: ""), placeholders (${TOKEN}, <your-key>, ***),
// code that reads a secret rather than spelling it (password ==
// "", getToken(), token = os.Getenv("X"), password = user.password,
// password: string), short ids, UUIDs and git SHAs.
//
// # Marker
//
// Each secret becomes [REDACTED:kind], kind naming what was there
// (private, private-key, anthropic-key, openai-key, stripe-key,
// github-token, gitlab-token, aws-access-key, aws-secret-key, slack-token,
// slack-webhook, google-key, google-oauth-secret, huggingface-token,
// sendgrid-key, npm-token, pypi-token, digitalocean-token,
// databricks-token, shopify-token, postman-key, linear-key, age-key,
// telegram-token, jwt, url-password, bearer-token, authorization,
// password, pin, secret, token, api-key). The name, operator and quotes of an assignment are kept
// (password = "[REDACTED:password]"), so the text still reads and JSON
// stays valid. Text already redacted is left as it is.
//
// # Guarantees
//
// String and JSON are pure, safe for concurrent use and never panic. They
// are idempotent (redacting twice gives what redacting once gives). Work is
// linear in the input: every rule is an anchored RE2 regexp tried only
// where one of its hints occurs in the lower-cased text (strings.Index), on
// a bounded window (see BenchmarkString). Case is folded in ASCII only, in
// hints and rules alike (see compile).
//
// # Prefilter
//
// Before the rules, one pass over the text answers whether any rule's hint
// occurs in it, and text without one is returned at once (prefilter.go):
// it is kept because without it learning falls to its budget of 100 MB of
// transcript per CPU-second on a loaded machine (docs/redaction.md,
// "Speed"). The rules stay
// the truth; TestHintsFromRegexp ties each rule's hints to its regexp and
// FuzzPrefilterSkipMeansUnchanged checks that what the prefilter skips, the
// rules leave unchanged.
package redact

import (
	"regexp"
	"regexp/syntax"
	"slices"
	"strings"
	"sync"
	"unicode/utf8"
)

// MarkerPrefix starts every marker; a marker is MarkerPrefix + kind + "]".
const MarkerPrefix = "[REDACTED:"

// marker returns the marker of kind.
func marker(kind string) string { return MarkerPrefix + kind + "]" }

// rule is one secret pattern, tried only where it can start: at each
// occurrence of one of hints (lower case) in the ASCII-lower-cased text,
// moved back over the characters back accepts (the rest of a name). With
// word set, the start must not follow a letter, digit or underscore. re is
// anchored (^) and matched from that start, on the rest of the line unless
// multiLine, so a failed try costs a few bytes and the work stays linear.
// Without fn, the whole match becomes the marker of kind; with fn, fn
// returns the replacement of the match (sub holds the submatch strings,
// sub[0] being the match), or the match itself to keep it.
type rule struct {
	hints []string
	back  func(c byte) bool
	word  bool
	// multiLine lets a match run past the end of the line.
	multiLine bool
	// ahead, when set, is a cheap test of the text from the start that
	// must pass before re runs.
	ahead func(s string) bool
	re    *regexp.Regexp
	kind  string
	fn    func(sub []string) string
}

// maxPasses bounds the passes of String: a pass that changed something is
// followed by another, so that a secret revealed by an earlier replacement
// is caught too and String stays idempotent.
const maxPasses = 4

// String returns s with every secret replaced by its marker (see the
// package doc). Text without secrets is returned unchanged.
func String(s string) string {
	if !mayHaveSecret(s) { // no rule can match: see prefilter.go
		return s
	}
	return applyRules(s)
}

// applyRules is String without the prefilter: the rules alone.
func applyRules(s string) string {
	for range maxPasses {
		out := pass(s)
		if out == s {
			return out
		}
		s = out
	}
	return s
}

// pass applies every rule once, in order.
func pass(s string) string {
	lower := asciiLower(s)
	rules := rules()
	for i := range rules {
		if out := rules[i].apply(s, lower); out != s {
			s, lower = out, asciiLower(out)
		}
	}
	return s
}

// asciiLower lower-cases ASCII letters only, so byte offsets in the result
// are offsets in s. It allocates only when s has an upper-case letter.
func asciiLower(s string) string {
	i := 0
	for i < len(s) && (s[i] < 'A' || s[i] > 'Z') {
		i++
	}
	if i == len(s) {
		return s
	}
	b := []byte(s)
	for ; i < len(b); i++ {
		if c := b[i]; c >= 'A' && c <= 'Z' {
			b[i] = c + 'a' - 'A'
		}
	}
	return string(b)
}

// apply replaces every match of r in s; lower is asciiLower(s).
func (r *rule) apply(s, lower string) string {
	hs := newHintScan(lower, r.hints)
	var b strings.Builder
	last, tried, skip := 0, -1, 0 // copied up to last; last start tried; its name ends at skip
	for {
		at := hs.next(last)
		if at < 0 {
			break
		}
		if at < skip { // in the name tried last
			continue
		}
		start, ok := r.startAt(s, at, max(last, tried+1))
		if !ok {
			continue
		}
		tried, skip = start, at
		for r.back != nil && skip < len(s) && r.back(s[skip]) {
			skip++
		}
		end := len(s)
		if !r.multiLine {
			end = min(end, at+maxLine)
			if nl := strings.IndexByte(s[at:end], '\n'); nl >= 0 {
				end = at + nl
			}
		}
		if r.ahead != nil && !r.ahead(s[start:end]) {
			continue
		}
		m := r.re.FindStringSubmatchIndex(s[start:end])
		if m == nil {
			continue
		}
		repl := r.replacement(s[start:end], m)
		if repl == s[start:start+m[1]] { // kept: later hints inside it still count
			continue
		}
		b.WriteString(s[last:start])
		b.WriteString(repl)
		last = start + m[1]
	}
	if last == 0 {
		return s
	}
	b.WriteString(s[last:])
	return b.String()
}

// hintScan yields the occurrences of any of its hints in order.
type hintScan struct {
	lower string
	hints []string
	at    [maxHints]int // next occurrence of each hint at or after the last one yielded, -1 none
	prev  int           // last occurrence yielded
}

// maxHints is the most hints a rule may have.
const maxHints = 8

func newHintScan(lower string, hints []string) hintScan {
	hs := hintScan{lower: lower, hints: hints, prev: -1}
	for i, h := range hints {
		hs.at[i] = strings.Index(lower, h)
	}
	return hs
}

// next returns the first occurrence after the previous one and at or after
// from, or -1 when there is none.
func (hs *hintScan) next(from int) int {
	from = max(from, hs.prev+1)
	at := -1
	for i, h := range hs.hints {
		if hs.at[i] >= 0 && hs.at[i] < from {
			hs.at[i] = indexFrom(hs.lower, h, from)
		}
		if hs.at[i] >= 0 && (at < 0 || hs.at[i] < at) {
			at = hs.at[i]
		}
	}
	hs.prev = at
	return at
}

// maxLine bounds the text a single-line rule looks at from its start, so
// a try costs at most that much whatever the length of the line. A value
// longer than that is not recognised by those rules (provider keys and
// private key blocks are matched whole by their own rules).
const maxLine = 1024

// startAt returns where r's regexp is tried for the hint at at: at, moved
// back over the characters r.back accepts but not below floor (the end of
// the last match or the start after the last try). ok is false when the
// name reaches back past floor (it was tried already) or, for word rules,
// the start follows a word character.
func (r *rule) startAt(s string, at, floor int) (start int, ok bool) {
	start = at
	if r.back != nil {
		for start > floor && r.back(s[start-1]) {
			start--
		}
		if start == floor && start > 0 && r.back(s[start-1]) {
			return start, false
		}
	}
	return start, !r.word || start == 0 || !wordChar(s[start-1])
}

// replacement returns what replaces the match m of r at the start of s.
func (r *rule) replacement(s string, m []int) string {
	if r.fn == nil {
		return marker(r.kind)
	}
	sub := make([]string, len(m)/2)
	for i := range sub {
		if m[2*i] >= 0 {
			sub[i] = s[m[2*i]:m[2*i+1]]
		}
	}
	return r.fn(sub)
}

// indexFrom is strings.Index(s[from:], sub) as an offset in s, or -1.
func indexFrom(s, sub string, from int) int {
	if from > len(s) {
		return -1
	}
	if i := strings.Index(s[from:], sub); i >= 0 {
		return from + i
	}
	return -1
}

func wordChar(c byte) bool {
	return c == '_' || c >= '0' && c <= '9' || c|0x20 >= 'a' && c|0x20 <= 'z'
}

// identChar accepts the characters of a name in code or configuration.
func identChar(c byte) bool { return wordChar(c) || c == '.' || c == '-' }

// schemeChar accepts the characters of a URL scheme.
func schemeChar(c byte) bool { return wordChar(c) && c != '_' || c == '+' || c == '.' || c == '-' }

// keep wraps a replacement that keeps sub[1] (the lead: a name, an
// operator, a scheme) and sub[3], and replaces sub[2] with the marker of
// kind when ok accepts it.
func keep(kind string, ok func(v string) bool) func(sub []string) string {
	return func(sub []string) string {
		if !ok(sub[2]) {
			return sub[0]
		}
		return sub[1] + marker(kind) + sub[3]
	}
}

// lazyRegexp returns a function that compiles expr on its first call and
// returns the same *regexp.Regexp ever after.
func lazyRegexp(expr string) func() *regexp.Regexp {
	return sync.OnceValue(func() *regexp.Regexp { return compile(expr) })
}

// compile compiles a rule's regexp with (?i) folding ASCII letters only.
// RE2 also matches the Kelvin sign K (U+212A) as k and the long s ſ
// (U+017F) as s, which the hints, found in ASCII-lower-cased text, cannot
// see: a literal under (?i) becomes a class of its two ASCII cases
// ("key" → [Kk][Ee][Yy]). Classes keep RE2's folding; no hint lies in one.
func compile(expr string) *regexp.Regexp {
	re, err := syntax.Parse(expr, syntax.Perl)
	if err != nil {
		panic("redact: " + err.Error())
	}
	return regexp.MustCompile(foldASCII(re).String())
}

// foldASCII rewrites the case-folded literals of re as ASCII classes.
func foldASCII(re *syntax.Regexp) *syntax.Regexp {
	for i, sub := range re.Sub {
		re.Sub[i] = foldASCII(sub)
	}
	if re.Op != syntax.OpLiteral || re.Flags&syntax.FoldCase == 0 {
		return re
	}
	flags := re.Flags &^ syntax.FoldCase
	cat := &syntax.Regexp{Op: syntax.OpConcat, Flags: flags}
	for _, r := range re.Rune {
		n := &syntax.Regexp{Op: syntax.OpLiteral, Flags: flags, Rune: []rune{r}}
		if l := r | 0x20; r < utf8.RuneSelf && l >= 'a' && l <= 'z' {
			n = &syntax.Regexp{Op: syntax.OpCharClass, Flags: flags, Rune: []rune{l - 0x20, l - 0x20, l, l}}
		}
		cat.Sub = append(cat.Sub, n)
	}
	return cat
}

// rules are compiled on first use, not at package initialisation: the
// SessionStart hook links this package (through the seed) and never redacts.
var rules = sync.OnceValue(func() []rule {
	return slices.Concat(coreRules(), providerRules(), commandRules(), prose())
})

// coreRules are the private blocks, private keys and the first provider
// keys, tried first.
func coreRules() []rule {
	return []rule{
		{hints: []string{"<private>"}, multiLine: true, re: compile(`^(?is)<private>(?:.*?</private>|.*$)`), kind: "private"},
		{hints: []string{"-----begin "}, multiLine: true, kind: "private-key", re: compile(
			`^-----BEGIN (?:[A-Z0-9]+ )*PRIVATE KEY(?: BLOCK)?-----[\s\S]*?(?:-----END (?:[A-Z0-9]+ )*PRIVATE KEY(?: BLOCK)?-----|$)`)},
		{hints: []string{"sk-ant-"}, word: true, re: compile(`^sk-ant-[A-Za-z0-9_\-]{8,}`), kind: "anthropic-key"},
		{hints: []string{"sk-"}, word: true, re: compile(`^sk-((?:proj|svcacct|admin)-)?[A-Za-z0-9_\-]{16,}`),
			fn: func(sub []string) string {
				if sub[1] == "" && !hasDigit(sub[0]) {
					return sub[0]
				}
				return marker("openai-key")
			}},
		{hints: []string{"sk_live_", "rk_live_", "sk_test_", "rk_test_", "whsec_"}, word: true, kind: "stripe-key",
			re: compile(`^(?:(?:sk|rk)_(?:live|test)_[A-Za-z0-9]{10,}|whsec_[A-Za-z0-9]{16,})`)},
		{hints: []string{"ghp_", "gho_", "ghu_", "ghs_", "ghr_", "github_pat_"}, word: true, kind: "github-token",
			re: compile(`^(?:(?:ghp|gho|ghu|ghs|ghr)_[A-Za-z0-9]{16,}|github_pat_[A-Za-z0-9_]{16,})`)},
		{hints: []string{"akia", "asia"}, word: true, re: compile(`^(?:AKIA|ASIA)[0-9A-Z]{16}\b`), kind: "aws-access-key"},
		{hints: []string{"xox"}, word: true, re: compile(`^xox[abposr]-[A-Za-z0-9\-]{10,}`), kind: "slack-token"},
		{hints: []string{"aiza"}, word: true, re: compile(`^AIza[0-9A-Za-z_\-]{30,}`), kind: "google-key"},
		{hints: []string{"eyj"}, word: true, kind: "jwt",
			re: compile(`^eyJ[A-Za-z0-9_\-]{8,}\.eyJ[A-Za-z0-9_\-]{8,}\.[A-Za-z0-9_\-]{8,}`)},
	}
}

// prose are the rules on credentials in URLs, headers, assignments and
// sentences, tried last.
func prose() []rule {
	return []rule{
		{hints: []string{"://"}, back: schemeChar, word: true,
			re: compile(`^([A-Za-z][A-Za-z0-9+.\-]*://[^/\s:@]*:)([^@\s/]+)(@)`),
			fn: keep("url-password", func(v string) bool { return !isMarker(v) })},
		{hints: []string{"authorization"}, word: true, re: compile(
			`^(?i)(authorization["']?[ \t]*[:=][ \t]*["']?(?:(?:basic|token|digest)[ \t]+)?)([A-Za-z0-9._~+/=\-]{8,})()`),
			fn: keep("authorization", func(v string) bool {
				return !strings.EqualFold(v, "bearer") && (hasDigit(v) || len(v) >= 16)
			})},
		{hints: []string{"bearer"}, word: true, re: compile(`^(?i)(bearer\s+)([A-Za-z0-9._~+/=\-]{8,})()`),
			fn: keep("bearer-token", func(v string) bool { return hasDigit(v) })},
		{hints: []string{"token"}, word: true, re: compile(`^(?i)(token\s+)([A-Za-z0-9._~+/=\-]{8,})()`),
			fn: keep("token", func(v string) bool { return hasDigit(v) && hasLetter(v) })},
		{hints: assignHints, back: identChar, ahead: assignmentAhead, re: assignRe(), fn: redactAssignment},
		{hints: plainHints, back: wordChar, ahead: plainAhead, re: plainRe(), fn: redactPlain},
	}
}

// Blank reports whether s holds nothing but markers and white space: text
// that was all secret.
func Blank(s string) bool {
	for {
		s = strings.TrimSpace(s)
		if !strings.HasPrefix(s, MarkerPrefix) {
			return s == ""
		}
		end := strings.IndexByte(s, ']')
		if end < 0 {
			return false
		}
		s = s[end+1:]
	}
}

func isMarker(v string) bool { return strings.HasPrefix(v, MarkerPrefix) }

func hasDigit(s string) bool { return strings.ContainsAny(s, "0123456789") }

func hasLetter(s string) bool {
	for i := 0; i < len(s); i++ {
		if c := s[i] | 0x20; c >= 'a' && c <= 'z' {
			return true
		}
	}
	return false
}
