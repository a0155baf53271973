package redact

import (
	"encoding/json"
	"strings"
	"testing"
)

// benchText is a mix of prose and code with the words that wake the
// assignment and plain-language rules, and a few secrets.
var benchText = strings.Repeat(`The session started on issue 42: add a login form.
func (s *Server) login(w http.ResponseWriter, r *http.Request) {
	password := r.FormValue("password")
	token, err := s.auth.Token(r.Context(), user, password)
	if err != nil { http.Error(w, "bad password", 401); return }
}
We reset the password field and keep the token bucket small. See https://example.com/docs?page=2.
`, 40) + "export API_KEY=abcd1234efgh and sk-ant-api03-abcdefghijkl\n"

// benchProse is text with no hint at all (the common case).
var benchProse = strings.Repeat("We always run the tests before pushing, and keep functions small and named for what they do.\n", 100)

func benchmarkString(b *testing.B, s string) {
	b.SetBytes(int64(len(s)))
	b.ReportAllocs()
	for b.Loop() {
		String(s)
	}
}

func BenchmarkString(b *testing.B) {
	b.Run("code-with-hints", func(b *testing.B) { benchmarkString(b, benchText) })
	b.Run("prose-no-hints", func(b *testing.B) { benchmarkString(b, benchProse) })
}

func BenchmarkJSON(b *testing.B) {
	small := json.RawMessage(`{"toolName":"paige_get_buffer","sessionId":"0193a1b2-7c3d-7e4f-8a9b-0c1d2e3f4a5b"}`)
	b.Run("action-payload", func(b *testing.B) {
		b.SetBytes(int64(len(small)))
		b.ReportAllocs()
		for b.Loop() {
			JSON(small)
		}
	})
	big, _ := json.Marshal(map[string]string{"text": benchText})
	b.Run("text-with-secrets", func(b *testing.B) {
		b.SetBytes(int64(len(big)))
		b.ReportAllocs()
		for b.Loop() {
			JSON(big)
		}
	})
}

// BenchmarkAdversarial feeds text built to make every hint fire: the work
// must stay linear in the input.
func BenchmarkAdversarial(b *testing.B) {
	for _, unit := range []string{"password", "password='", "token ", "the password is ", "<private>", "-----BEGIN RSA PRIVATE KEY-----"} {
		b.Run(strings.TrimSpace(unit), func(b *testing.B) { benchmarkString(b, strings.Repeat(unit, 10000)) })
	}
}
