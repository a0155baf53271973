package terminal

import (
	"crypto/rand"
	"crypto/subtle"
	"encoding/base64"
	"errors"
	"net"
	"net/http"
	"net/url"
	"strings"
)

// MinFixedTokenLen is the shortest token [NewKey] accepts from PAIGE_TOKEN.
const MinFixedTokenLen = 32

// CookiePrefix starts the name of the cookie that carries the token. The
// name ends with the server's port ("paige_token_3000"): cookies are not
// separated by port, and two servers on one machine must not overwrite each
// other's key.
const CookiePrefix = "paige_token"

// ErrShortToken is returned by [NewKey] for a fixed token that is too short.
var ErrShortToken = errors.New("terminal: PAIGE_TOKEN must be at least 32 characters")

// Key is the per-process secret that guards the terminal (the scheme Jupyter
// uses): the URL `paige serve` prints carries it once as ?token=, [Key.Exchange]
// trades it for an HttpOnly, SameSite=Strict cookie, and [Key.Authorized]
// checks that cookie. A Key is immutable and safe for concurrent use.
type Key struct {
	token string
}

// NewKey returns a Key. An empty fixed token means a random one: 32 bytes
// from crypto/rand, base64url without padding (43 characters). A fixed token
// (PAIGE_TOKEN) must be at least [MinFixedTokenLen] characters.
func NewKey(fixed string) (*Key, error) {
	fixed = strings.TrimSpace(fixed)
	if fixed != "" {
		if len(fixed) < MinFixedTokenLen {
			return nil, ErrShortToken
		}
		return &Key{token: fixed}, nil
	}
	b := make([]byte, 32)
	if _, err := rand.Read(b); err != nil {
		return nil, err
	}
	return &Key{token: base64.RawURLEncoding.EncodeToString(b)}, nil
}

// Token returns the secret, for the URL `paige serve` prints.
func (k *Key) Token() string { return k.token }

// URL returns base (e.g. "http://127.0.0.1:3000") + "/?token=<token>".
func (k *Key) URL(base string) string {
	return strings.TrimSuffix(base, "/") + "/?token=" + url.QueryEscape(k.token)
}

// valid reports whether s is the token, in constant time.
func (k *Key) valid(s string) bool {
	return s != "" && subtle.ConstantTimeCompare([]byte(s), []byte(k.token)) == 1
}

// Authorized reports whether r carries the token cookie for r's port.
func (k *Key) Authorized(r *http.Request) bool {
	c, err := r.Cookie(CookieName(r.Host))
	return err == nil && k.valid(c.Value)
}

// Exchange wraps the workbench page: a GET or HEAD carrying a valid ?token=
// gets the cookie and a 303 redirect to the same URL without the token (so
// it leaves the address bar and the history); a wrong token is dropped the
// same way without a cookie. Every other request goes to next untouched.
func (k *Key) Exchange(next http.Handler) http.Handler {
	return http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		q := r.URL.Query()
		if !q.Has("token") || (r.Method != http.MethodGet && r.Method != http.MethodHead) {
			next.ServeHTTP(w, r)
			return
		}
		if k.valid(q.Get("token")) {
			http.SetCookie(w, &http.Cookie{
				Name:     CookieName(r.Host),
				Value:    k.token,
				Path:     "/",
				HttpOnly: true,
				SameSite: http.SameSiteStrictMode,
				Secure:   r.TLS != nil,
			})
		}
		q.Del("token")
		u := url.URL{Path: r.URL.Path, RawQuery: q.Encode()}
		w.Header().Set("Cache-Control", "no-store")
		http.Redirect(w, r, u.String(), http.StatusSeeOther)
	})
}

// CookieName returns the token cookie's name for a request to host
// ("paige_token_3000" for "127.0.0.1:3000"; "paige_token" without a port).
func CookieName(host string) string {
	_, port, err := net.SplitHostPort(host)
	if err != nil || port == "" {
		return CookiePrefix
	}
	return CookiePrefix + "_" + port
}
