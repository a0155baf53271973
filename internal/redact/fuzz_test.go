package redact

import (
	"encoding/json"
	"strings"
	"testing"
)

// fuzzSecrets are secrets the fuzzers embed in random text, each with the
// part that must never survive.
var fuzzSecrets = []struct{ text, secret string }{
	{"sk-ant-api03-abcDEF123456", "abcDEF123456"},
	{"ghp_abcdefghijklmnopqrstuvwxyz0123", "abcdefghijklmnopqrstuvwxyz0123"},
	{"AKIAIOSFODNN7EXAMPLE", "IOSFODNN7EXAMPLE"},
	{"eyJhbGciOiJIUzI1NiJ9.eyJzdWIiOiIxMjM0NTY3ODkwIn0.dozjgNryP4J3jVmNHl0w5N", "dozjgNryP4J3jVmNHl0w5N"},
	{"password=hunter2pw", "hunter2pw"},
	{`"api_key": "zq8vn3kd7"`, "zq8vn3kd7"},
	{"Bearer abc123def456ghi", "abc123def456ghi"},
	{"<private>mysalaryis10k</private>", "mysalaryis10k"},
	{"the password is swordfish9", "swordfish9"},
	{"sk_live_51H8abcdEFGH1234", "51H8abcdEFGH1234"},
	{"postgres://app:pa55w0rdz@db/x", "pa55w0rdz"},
	{"-----BEGIN RSA PRIVATE KEY-----\nMIIEpAIBAAKCAQEA\n-----END RSA PRIVATE KEY-----", "MIIEpAIBAAKCAQEA"},
}

func FuzzString(f *testing.F) {
	f.Add("a <private>b</private> sk-ant-abcdefghij password=x", "", uint8(0))
	for i, tt := range positives {
		f.Add(tt.in, "", uint8(i))
	}
	for i, tt := range negatives {
		f.Add(tt.in, "tail", uint8(i))
	}
	f.Fuzz(func(t *testing.T, prefix, suffix string, pick uint8) {
		// Random text alone: never panics, idempotent.
		once := String(prefix)
		if strings.Contains(strings.ToLower(once), "<private>") {
			t.Fatalf("String(%q) = %q keeps <private>", prefix, once)
		}
		if twice := String(once); twice != once {
			t.Fatalf("not idempotent on %q: %q then %q", prefix, once, twice)
		}
		// A known secret between random text is gone.
		s := fuzzSecrets[int(pick)%len(fuzzSecrets)]
		in := prefix + " " + s.text + " " + suffix
		out := String(in)
		if n, before := strings.Count(out, s.secret), strings.Count(prefix, s.secret)+strings.Count(suffix, s.secret); n > before {
			t.Fatalf("String(%q) = %q keeps %q", in, out, s.secret)
		}
		if again := String(out); again != out {
			t.Fatalf("not idempotent on %q: %q then %q", in, out, again)
		}
	})
}

func FuzzJSON(f *testing.F) {
	f.Add(`{"password":"hunter2","a":[1,"sk-ant-api03-abcdefgh"]}`)
	f.Add(`{"m":"\u003cprivate\u003ex"}`)
	f.Fuzz(func(t *testing.T, in string) {
		out := JSON(json.RawMessage(in))
		if json.Valid([]byte(in)) && !json.Valid(out) {
			t.Fatalf("JSON(%s) = %s is not valid JSON", in, out)
		}
		if again := JSON(out); string(again) != string(out) {
			t.Fatalf("JSON not idempotent on %s: %s then %s", in, out, again)
		}
	})
}
