package transcript

import (
	"strconv"
	"strings"
	"testing"

	"github.com/tidwall/gjson"
)

// FuzzShortResult checks the tool result fast paths (shortResult,
// asciiResult) against the long way
// (decode the budget's prefix, Clean, cut) on every JSON string literal:
// whenever it answers, it answers the same.
func FuzzShortResult(f *testing.F) {
	line := `    17→func (s *Server) handle(w http.ResponseWriter, r *http.Request) { s.log.Info("req") }` + "\n"
	for _, s := range []string{
		strings.Repeat(line, 30),
		"   \n\t " + strings.Repeat("abc \n", 40),
		strings.Repeat("x", 50) + "\n\n\n" + strings.Repeat("y", 300),
		strings.Repeat("x", 60) + "<system-reminder>no</system-reminder>" + strings.Repeat("y", 300),
		strings.Repeat("x", 61) + "\n\n<system-reminder>" + strings.Repeat("y", 300),
		strings.Repeat("é", 40) + "\U0001F600" + strings.Repeat("z", 300),
		strings.Repeat("漢", 300),
		strings.Repeat(" ", 100) + strings.Repeat("w ", 30) + strings.Repeat(" ", 400) + "[Request interrupted by user]",
		strings.Repeat("a\u00a0", 100) + strings.Repeat("\u0085", 200),
	} {
		f.Add(strconv.Quote(s), uint8(10))
		f.Add(strconv.QuoteToASCII(s), uint8(40))
	}
	f.Add(`"`+strings.Repeat(`\ud83d\ude00`, 80)+`"`, uint8(20))
	f.Add(`"`+strings.Repeat("ab\xff\xfe", 80)+`"`, uint8(20))
	f.Add(`"`+strings.Repeat(`a\n\tb\\\"\/\r\f\b `, 60)+`"`, uint8(9))
	f.Add(`"  \n\n`+strings.Repeat("q", 100)+`"`, uint8(63))
	f.Fuzz(func(t *testing.T, raw string, n uint8) {
		if !gjson.Valid(raw) || raw == "" || raw[0] != '"' || skipString(raw, 0) != len(raw) {
			return
		}
		max := int(n%64) + 1
		for _, budget := range []int{max*8 + 512, int(n), 3 * max} {
			want := truncate(Clean(prefixString(raw, budget)), max)
			if got, ok := shortResult(raw, budget, max); ok && got != want {
				t.Fatalf("shortResult(%q, %d, %d) = %q, long way %q", raw, budget, max, got, want)
			}
			if got, ok := asciiResult([]byte("kept"), raw, budget, max); ok && string(got) != "kept"+want {
				t.Fatalf("asciiResult(%q, %d, %d) = %q, long way %q", raw, budget, max, got, want)
			}
		}
	})
}

// TestShortResultTaken checks that the fast path answers for an ordinary
// tool result and steps aside when a wrapper comes early.
func TestShortResultTaken(t *testing.T) {
	body := strconv.Quote(strings.Repeat("    17→func main() { fmt.Println(\"hi\") }\n", 60))
	if got, ok := shortResult(body, 2112, 200); !ok || got != truncate(Clean(prefixString(body, 2112)), 200) {
		t.Fatalf("ordinary result: ok=%v %q", ok, got)
	}
	if got, ok := asciiResult(nil, body, 2112, 200); !ok || string(got) != truncate(Clean(prefixString(body, 2112)), 200) {
		t.Fatalf("ordinary result, ASCII way: ok=%v %q", ok, got)
	}
	wrapped := strconv.Quote("<system-reminder>x</system-reminder>" + strings.Repeat("y", 3000))
	if _, ok := shortResult(wrapped, 2112, 200); ok {
		t.Fatal("took the fast path over a wrapper")
	}
	if _, ok := asciiResult(nil, wrapped, 2112, 200); ok {
		t.Fatal("took the ASCII path over a wrapper")
	}
}

// FuzzPlainRun checks plainRun, eight bytes at a time, against the byte
// loop it stands for, from every start to stops around each eight-byte
// step and at the first byte it must stop at.
func FuzzPlainRun(f *testing.F) {
	f.Add("    17→func (s *Server) handle(w http.ResponseWriter) { s.log.Info(\\\"req\\\") }\\n")
	f.Add("abcdefgh<ijklmnop[qrstuvw\\xyz\x1f\x7f\x80~ \x00")
	f.Fuzz(func(t *testing.T, s string) {
		next := make([]int, len(s)+1) // the first byte plainRun stops at, from each start
		next[len(s)] = len(s)
		for i := len(s) - 1; i >= 0; i-- {
			if c := s[i]; c < 0x20 || c >= 0x80 || c == '<' || c == '[' || c == '\\' {
				next[i] = i
			} else {
				next[i] = next[i+1]
			}
		}
		for i := 0; i <= len(s); i++ {
			for _, stop := range []int{i, i + 1, i + 7, i + 8, i + 9, i + 16, i + 17, next[i], next[i] + 1, len(s)} {
				if stop > len(s) {
					continue
				}
				if got, want := plainRun(s, i, stop), min(next[i], stop); got != want {
					t.Fatalf("plainRun(%q, %d, %d) = %d, want %d", s, i, stop, got, want)
				}
			}
		}
	})
}
