package server

import (
	"fmt"
	"mime"
	"net"
	"net/http"
	"net/netip"
	"net/url"
	"strconv"
	"strings"
)

// Rule names one rule of the [Policy]. A refused request is answered with
// the rule it broke, so a user (or a test) can tell which door was shut.
type Rule string

// The rules of the [Policy], in the order they are checked.
const (
	// RuleHost: the Host header must name a loopback address (localhost,
	// 127.0.0.1 and the rest of 127/8, [::1]) with the server's own port,
	// or be listed in PAIGE_ALLOWED_HOSTS. It defeats DNS rebinding, where
	// evil.example resolves to 127.0.0.1 and the browser sends
	// Host: evil.example:3000.
	RuleHost Rule = "host"
	// RuleOriginNull: Origin: null (a sandboxed iframe, a data: page, some
	// redirects) is refused: it can come from any site.
	RuleOriginNull Rule = "origin-null"
	// RuleOrigin: a browser Origin must be the server itself (same scheme
	// family http/https and the same host:port as the Host header) or be
	// listed in PAIGE_ALLOWED_ORIGINS.
	RuleOrigin Rule = "origin"
	// RuleFetchSite: Sec-Fetch-Site must be same-origin or none (the user
	// typed the URL); cross-site and same-site requests pass only with a
	// listed Origin.
	RuleFetchSite Rule = "sec-fetch-site"
	// RuleContentType: a POST, PUT, PATCH or DELETE that declares a
	// Content-Type must declare application/json; one with a body must
	// declare it. No HTML form or no-cors fetch can send that without a
	// CORS preflight, which this server never grants to a foreign origin.
	RuleContentType Rule = "content-type"
)

// Policy decides which requests may reach Paige's routes. Paige runs on the
// developer's machine, reachable from every web page the developer opens;
// the policy lets through the developer's own tools (CLI, editor, Claude
// Code: no Origin, no Sec-Fetch-*), the pages Paige serves itself
// (same-origin) and the origins the user listed, and refuses everything
// else. docs/security.md states the threat model.
//
// A zero Policy is valid: loopback hosts only, no extra origins. A Policy
// is read-only after construction and safe for concurrent use.
type Policy struct {
	// AllowedHosts are Host values accepted besides the loopback names
	// (PAIGE_ALLOWED_HOSTS), lowercase: "name" matches that name with any
	// port or none, "name:port" (or "[v6]:port") only that port.
	AllowedHosts []string
	// AllowedOrigins are browser origins accepted besides the server's own
	// (PAIGE_ALLOWED_ORIGINS, plus an explicitly set CORS_ORIGINS), in
	// their serialized form "scheme://host[:port]", lowercase.
	AllowedOrigins []string
}

// Request is what the policy looks at in one HTTP request.
type Request struct {
	Method string
	// Host is the Host header (r.Host).
	Host string
	// Origin is the Origin header; HasOrigin reports whether it was sent
	// (an empty Origin header is a malformed one, not a missing one).
	Origin    string
	HasOrigin bool
	// SecFetchSite is the Sec-Fetch-Site header, lowercase; empty if absent.
	SecFetchSite string
	// ContentType is the Content-Type header; empty if absent.
	ContentType string
	// HasBody reports whether the request declares a body (a non-zero or
	// unknown Content-Length).
	HasBody bool
	// LocalPort is the port of the listener that accepted the request;
	// zero if unknown, in which case no loopback Host matches.
	LocalPort int
}

// Refusal is the policy's answer to a request it refuses.
type Refusal struct {
	Rule   Rule
	Reason string // one sentence for the user
}

// Error returns the reason, prefixed with the rule.
func (r *Refusal) Error() string { return fmt.Sprintf("%s: %s", r.Rule, r.Reason) }

// RequestFacts extracts the facts the policy needs from r.
func RequestFacts(r *http.Request) Request {
	q := Request{
		Method:       r.Method,
		Host:         r.Host,
		SecFetchSite: strings.ToLower(strings.TrimSpace(r.Header.Get("Sec-Fetch-Site"))),
		ContentType:  r.Header.Get("Content-Type"),
		HasBody:      r.ContentLength != 0,
	}
	if v, ok := r.Header["Origin"]; ok {
		q.HasOrigin = true
		if len(v) > 0 {
			q.Origin = v[0]
		}
	}
	if a, ok := r.Context().Value(http.LocalAddrContextKey).(net.Addr); ok && a != nil {
		if ap, err := netip.ParseAddrPort(a.String()); err == nil {
			q.LocalPort = int(ap.Port())
		}
	}
	return q
}

// Check returns nil if q may proceed, or the first rule it breaks.
func (p *Policy) Check(q Request) *Refusal {
	if !p.hostAllowed(q.Host, q.LocalPort) {
		return &Refusal{RuleHost, fmt.Sprintf("Host %q is not a loopback name with this server's port nor listed in PAIGE_ALLOWED_HOSTS", q.Host)}
	}
	listed := false
	if q.HasOrigin {
		origin := strings.TrimSpace(q.Origin)
		switch {
		case strings.EqualFold(origin, "null"):
			return &Refusal{RuleOriginNull, "Origin null (a sandboxed or opaque page) is not allowed"}
		case p.originListed(origin):
			listed = true
		case !sameOrigin(origin, q.Host):
			return &Refusal{RuleOrigin, fmt.Sprintf("Origin %q is neither this server nor listed in PAIGE_ALLOWED_ORIGINS", q.Origin)}
		}
	}
	switch q.SecFetchSite {
	case "", "same-origin", "none":
	default:
		if !listed {
			return &Refusal{RuleFetchSite, fmt.Sprintf("Sec-Fetch-Site %q: requests from other sites are not allowed", q.SecFetchSite)}
		}
	}
	if stateChanging(q.Method) {
		if q.ContentType != "" {
			if mt, _, err := mime.ParseMediaType(q.ContentType); err != nil || mt != "application/json" {
				return &Refusal{RuleContentType, fmt.Sprintf("%s needs Content-Type application/json, got %q", q.Method, q.ContentType)}
			}
		} else if q.HasBody {
			return &Refusal{RuleContentType, fmt.Sprintf("%s with a body needs Content-Type application/json", q.Method)}
		}
	}
	return nil
}

func stateChanging(method string) bool {
	switch method {
	case http.MethodPost, http.MethodPut, http.MethodPatch, http.MethodDelete:
		return true
	}
	return false
}

// hostAllowed reports whether host (a Host header) names this server: a
// loopback name with the listener's port (no port: port 80), or a listed
// host.
func (p *Policy) hostAllowed(host string, localPort int) bool {
	name, port, ok := splitHost(host)
	if !ok {
		return false
	}
	if isLoopbackName(name) {
		return localPort != 0 && portOf(port) == localPort
	}
	for _, entry := range p.AllowedHosts {
		lname, lport, ok := splitHost(entry)
		if ok && lname == name && (lport == "" || portOf(lport) == portOf(port)) {
			return true
		}
	}
	return false
}

// splitHost splits a Host value into a lowercase name (IPv6 without
// brackets) and its port ("" when absent). ok is false for an empty or
// malformed value.
func splitHost(host string) (name, port string, ok bool) {
	host = strings.ToLower(host)
	if h, p, err := net.SplitHostPort(host); err == nil {
		if _, err := strconv.ParseUint(p, 10, 16); err != nil || h == "" {
			return "", "", false
		}
		return h, p, true
	}
	if strings.HasPrefix(host, "[") && strings.HasSuffix(host, "]") {
		host = host[1 : len(host)-1]
		if _, err := netip.ParseAddr(host); err != nil {
			return "", "", false
		}
		return host, "", true
	}
	if host == "" || strings.ContainsAny(host, ":[]/@ ") {
		return "", "", false
	}
	return host, "", true
}

// portOf returns the numeric port; "" is HTTP's default, 80.
func portOf(p string) int {
	if p == "" {
		return 80
	}
	n, _ := strconv.Atoi(p)
	return n
}

func isLoopbackName(name string) bool {
	if name == "localhost" {
		return true
	}
	ip, err := netip.ParseAddr(name)
	return err == nil && ip.Zone() == "" && ip.Unmap().IsLoopback()
}

// sameOrigin reports whether origin is an http(s) origin whose host:port is
// host, the request's Host header.
func sameOrigin(origin, host string) bool {
	u, err := url.Parse(origin)
	if err != nil || u.Host == "" || u.User != nil || (u.Path != "" && u.Path != "/") {
		return false
	}
	switch strings.ToLower(u.Scheme) {
	case "http", "https":
		return strings.EqualFold(u.Host, host)
	}
	return false
}

// originListed reports whether origin is one of the listed origins.
func (p *Policy) originListed(origin string) bool {
	o := strings.ToLower(strings.TrimSuffix(origin, "/"))
	for _, l := range p.AllowedOrigins {
		if o == l {
			return true
		}
	}
	return false
}
