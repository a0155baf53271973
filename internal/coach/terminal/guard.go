package terminal

import (
	"errors"
	"net"
	"net/http"
	"net/url"
	"strings"
)

// checkOrigin is the terminal's own origin policy, kept in this one function
// so it can be swapped for the server-wide policy: the Host header must name
// a loopback address (localhost, 127.0.0.0/8, ::1) or one of allowedHosts
// (a DNS-rebinding page has its own host name there), and a browser request
// must come from the same origin (scheme http or https, same host:port).
// "Origin: null" (sandboxed frames, file:// pages) is refused. A request
// without Origin is not from a browser page and passes this check; the
// token cookie is still required.
func checkOrigin(r *http.Request, allowedHosts []string) error {
	if !hostAllowed(r.Host, allowedHosts) {
		return errors.New("Host " + r.Host + " is not a loopback address")
	}
	origin, sent := r.Header["Origin"]
	if !sent {
		return nil
	}
	if len(origin) != 1 {
		return errors.New("more than one Origin")
	}
	u, err := url.Parse(strings.TrimSpace(origin[0]))
	if err != nil || (u.Scheme != "http" && u.Scheme != "https") || u.Host == "" {
		return errors.New("Origin " + origin[0] + " is not a web origin")
	}
	if !strings.EqualFold(u.Host, r.Host) {
		return errors.New("Origin " + origin[0] + " is not this server")
	}
	return nil
}

// hostAllowed reports whether the Host header names a loopback address or
// one of allowed (host names, compared without port, case-insensitively).
func hostAllowed(host string, allowed []string) bool {
	h := host
	if hh, _, err := net.SplitHostPort(host); err == nil {
		h = hh
	}
	h = strings.TrimSuffix(strings.TrimPrefix(h, "["), "]")
	if h == "" {
		return false
	}
	if strings.EqualFold(h, "localhost") {
		return true
	}
	if ip := net.ParseIP(h); ip != nil && ip.IsLoopback() {
		return true
	}
	for _, a := range allowed {
		if a = strings.TrimSpace(a); a != "" && strings.EqualFold(a, h) {
			return true
		}
	}
	return false
}
