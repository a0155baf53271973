package terminal

import (
	"net/http"
	"net/http/httptest"
	"strings"
	"testing"
)

func TestNewKey(t *testing.T) {
	a, err := NewKey("")
	if err != nil {
		t.Fatal(err)
	}
	b, _ := NewKey("")
	if len(a.Token()) != 43 || a.Token() == b.Token() {
		t.Errorf("random tokens: got %q and %q, want two different 43-character tokens", a.Token(), b.Token())
	}
	if _, err := NewKey("short"); err != ErrShortToken {
		t.Errorf("short fixed token: got %v, want ErrShortToken", err)
	}
	k, err := NewKey(" " + testToken + " ")
	if err != nil || k.Token() != testToken {
		t.Errorf("fixed token: got %v, %v", k, err)
	}
	if got := k.URL("http://127.0.0.1:3000/"); got != "http://127.0.0.1:3000/?token="+testToken {
		t.Errorf("URL: got %q", got)
	}
}

// TestKeyExchange: ?token=<valid> sets the HttpOnly, SameSite=Strict cookie
// and redirects to the URL without the token; a wrong token redirects
// without a cookie; no token passes through; the cookie then authorizes.
func TestKeyExchange(t *testing.T) {
	k, _ := NewKey(testToken)
	next := http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) { w.Write([]byte("page")) })
	h := k.Exchange(next)

	rec := httptest.NewRecorder()
	h.ServeHTTP(rec, httptest.NewRequest("GET", "http://127.0.0.1:3000/work?token="+testToken+"&tab=2", nil))
	if rec.Code != http.StatusSeeOther || rec.Header().Get("Location") != "/work?tab=2" {
		t.Fatalf("valid token: got %d to %q, want 303 to /work?tab=2", rec.Code, rec.Header().Get("Location"))
	}
	cookies := rec.Result().Cookies()
	if len(cookies) != 1 {
		t.Fatalf("cookies: got %d, want 1", len(cookies))
	}
	c := cookies[0]
	if c.Name != "paige_token_3000" || c.Value != testToken || !c.HttpOnly || c.SameSite != http.SameSiteStrictMode || c.Path != "/" || c.Secure {
		t.Errorf("cookie: got %+v", c)
	}
	req := httptest.NewRequest("GET", "http://127.0.0.1:3000/pty", nil)
	if k.Authorized(req) {
		t.Error("Authorized without cookie: got true")
	}
	req.AddCookie(c)
	if !k.Authorized(req) {
		t.Error("Authorized with the cookie: got false")
	}

	rec = httptest.NewRecorder()
	h.ServeHTTP(rec, httptest.NewRequest("GET", "http://127.0.0.1:3000/?token=wrong", nil))
	if rec.Code != http.StatusSeeOther || rec.Header().Get("Location") != "/" || len(rec.Result().Cookies()) != 0 {
		t.Errorf("wrong token: got %d to %q with %d cookies, want 303 to / without cookie",
			rec.Code, rec.Header().Get("Location"), len(rec.Result().Cookies()))
	}

	rec = httptest.NewRecorder()
	h.ServeHTTP(rec, httptest.NewRequest("GET", "http://127.0.0.1:3000/", nil))
	if rec.Code != 200 || !strings.Contains(rec.Body.String(), "page") {
		t.Errorf("no token: got %d %q, want the page", rec.Code, rec.Body.String())
	}
}

// FuzzParseControl: any frame decodes to exactly one message or an error,
// never a panic, and sizes stay in range.
func FuzzParseControl(f *testing.F) {
	for _, s := range []string{`{"type":"input","data":"ls\r"}`, `{"type":"resize","cols":80,"rows":24}`,
		`{"type":"resize","cols":-1}`, `{}`, `[]`, `{"type":"input","data":5}`, "\x00"} {
		f.Add([]byte(s))
	}
	f.Fuzz(func(t *testing.T, b []byte) {
		c, err := parseControl(b)
		if err != nil {
			return
		}
		if (c.input == nil) == (c.resize == nil) {
			t.Fatalf("parseControl(%q): got %+v, want exactly one message", b, c)
		}
		if c.resize != nil && (c.resize.Cols < 1 || c.resize.Rows < 1 || c.resize.Cols > MaxSize || c.resize.Rows > MaxSize) {
			t.Fatalf("parseControl(%q): size out of range %+v", b, c.resize)
		}
	})
}
