package redact

import (
	"encoding/json"
	"strings"
	"testing"

	"github.com/paige-dev/paige/internal/testenv"
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
	benchmarkCPU(b, len(s), func() { String(s) })
}

// benchmarkCPU runs f on n bytes and reports, besides the wall time, the
// process CPU time per call (cpu-ns/op), what a shared machine's load does
// not inflate (run with GOMAXPROCS=1).
func benchmarkCPU(b *testing.B, n int, f func()) {
	b.SetBytes(int64(n))
	b.ReportAllocs()
	cpu0 := testenv.CPUTime()
	for b.Loop() {
		f()
	}
	if cpu := testenv.CPUTime() - cpu0; cpu > 0 {
		b.ReportMetric(float64(cpu.Nanoseconds())/float64(b.N), "cpu-ns/op")
	}
}

func BenchmarkString(b *testing.B) {
	b.Run("code-with-hints", func(b *testing.B) { benchmarkString(b, benchText) })
	b.Run("prose-no-hints", func(b *testing.B) { benchmarkString(b, benchProse) })
}

// benchPayload is the action payload logged most often: a file's
// buffer_summary, every 30 s while it is edited.
var benchPayload = json.RawMessage(`{"path":"internal/server/handler.go","editCount":14,"charDelta":-37,"charCount":2613}`)

func BenchmarkJSON(b *testing.B) {
	big, _ := json.Marshal(map[string]string{"text": benchText})
	for _, bench := range []struct {
		name string
		raw  json.RawMessage
	}{
		{"action-payload", json.RawMessage(`{"toolName":"paige_get_buffer","sessionId":"0193a1b2-7c3d-7e4f-8a9b-0c1d2e3f4a5b"}`)},
		{"buffer-summary", benchPayload},
		{"text-with-secrets", big},
	} {
		b.Run(bench.name, func(b *testing.B) { benchmarkCPU(b, len(bench.raw), func() { JSON(bench.raw) }) })
	}
}

// BenchmarkAdversarial feeds text built to make every hint fire: the work
// must stay linear in the input.
func BenchmarkAdversarial(b *testing.B) {
	for _, unit := range []string{"password", "password='", "token ", "the password is ", "<private>", "-----BEGIN RSA PRIVATE KEY-----"} {
		b.Run(strings.TrimSpace(unit), func(b *testing.B) { benchmarkString(b, strings.Repeat(unit, 10000)) })
	}
}
