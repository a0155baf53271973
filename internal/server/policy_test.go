package server

import (
	"net"
	"net/http"
	"net/netip"
	"testing"
)

func TestPolicyCheck(t *testing.T) {
	listed := &Policy{
		AllowedHosts:   []string{"paige.test", "box.lan:8080", "[fd00::1]:3000"},
		AllowedOrigins: []string{"vscode-webview://abc", "http://localhost:5173"},
	}
	get := func(host string) Request { return Request{Method: "GET", Host: host, LocalPort: 3000} }
	with := func(q Request, f func(*Request)) Request { f(&q); return q }
	origin := func(o string) func(*Request) { return func(q *Request) { q.Origin, q.HasOrigin = o, true } }
	site := func(s string) func(*Request) { return func(q *Request) { q.SecFetchSite = s } }
	post := func(ct string, body bool) func(*Request) {
		return func(q *Request) { q.Method, q.ContentType, q.HasBody = "POST", ct, body }
	}
	tests := []struct {
		name string
		p    *Policy
		q    Request
		want Rule // "" means allowed
	}{
		// Host
		{"cli 127.0.0.1", &Policy{}, get("127.0.0.1:3000"), ""},
		{"cli localhost", &Policy{}, get("localhost:3000"), ""},
		{"cli LOCALHOST", &Policy{}, get("LocalHost:3000"), ""},
		{"cli ipv6", &Policy{}, get("[::1]:3000"), ""},
		{"cli 127.0.0.2", &Policy{}, get("127.0.0.2:3000"), ""},
		{"mapped v4 loopback", &Policy{}, get("[::ffff:127.0.0.1]:3000"), ""},
		{"rebinding", &Policy{}, get("evil.example:3000"), RuleHost},
		{"rebinding no port", &Policy{}, get("evil.example"), RuleHost},
		{"other port", &Policy{}, get("localhost:3001"), RuleHost},
		{"localhost trailing dot", &Policy{}, get("localhost.:3000"), RuleHost},
		{"localhost subdomain", &Policy{}, get("a.localhost:3000"), RuleHost},
		{"empty host (HTTP/1.0 without Host)", &Policy{}, get(""), RuleHost},
		{"no port on port 3000", &Policy{}, get("localhost"), RuleHost},
		{"no port on port 80", &Policy{}, Request{Method: "GET", Host: "localhost", LocalPort: 80}, ""},
		{"bracketed v6 no port on 80", &Policy{}, Request{Method: "GET", Host: "[::1]", LocalPort: 80}, ""},
		{"unknown local port", &Policy{}, Request{Method: "GET", Host: "localhost:3000"}, RuleHost},
		{"bare ipv6", &Policy{}, get("::1"), RuleHost},
		{"bad port", &Policy{}, get("localhost:99999"), RuleHost},
		{"userinfo", &Policy{}, get("evil@localhost:3000"), RuleHost},
		{"private lan ip", &Policy{}, get("192.168.1.2:3000"), RuleHost},
		{"zero address", &Policy{}, get("0.0.0.0:3000"), RuleHost},
		{"listed any port", listed, get("paige.test:9999"), ""},
		{"listed no port", listed, get("PAIGE.test"), ""},
		{"listed with port", listed, get("box.lan:8080"), ""},
		{"listed wrong port", listed, get("box.lan:8081"), RuleHost},
		{"listed v6", listed, get("[fd00::1]:3000"), ""},
		{"not listed", listed, get("evil.example:3000"), RuleHost},
		// Origin
		{"same origin", &Policy{}, with(get("localhost:3000"), origin("http://localhost:3000")), ""},
		{"same origin https", &Policy{}, with(get("localhost:3000"), origin("https://localhost:3000")), ""},
		{"same origin case", &Policy{}, with(get("localhost:3000"), origin("HTTP://LOCALHOST:3000")), ""},
		{"same origin ipv6", &Policy{}, with(get("[::1]:3000"), origin("http://[::1]:3000")), ""},
		{"loopback but other name", &Policy{}, with(get("localhost:3000"), origin("http://127.0.0.1:3000")), RuleOrigin},
		{"loopback other port (vite)", &Policy{}, with(get("localhost:3000"), origin("http://localhost:5173")), RuleOrigin},
		{"evil origin", &Policy{}, with(get("localhost:3000"), origin("https://evil.example")), RuleOrigin},
		{"null origin", &Policy{}, with(get("localhost:3000"), origin("null")), RuleOriginNull},
		{"file origin", &Policy{}, with(get("localhost:3000"), origin("file://")), RuleOrigin},
		{"empty origin header", &Policy{}, with(get("localhost:3000"), origin("")), RuleOrigin},
		{"origin with path", &Policy{}, with(get("localhost:3000"), origin("http://localhost:3000/x")), RuleOrigin},
		{"ws scheme", &Policy{}, with(get("localhost:3000"), origin("ws://localhost:3000")), RuleOrigin},
		{"listed origin", listed, with(get("localhost:3000"), origin("vscode-webview://abc")), ""},
		{"listed origin cross-site fetch", listed, with(get("localhost:3000"), func(q *Request) {
			origin("http://localhost:5173")(q)
			site("same-site")(q)
		}), ""},
		{"rebinding same origin", &Policy{}, with(get("evil.example:3000"), origin("http://evil.example:3000")), RuleHost},
		// Sec-Fetch-Site
		{"fetch same-origin", &Policy{}, with(get("localhost:3000"), site("same-origin")), ""},
		{"fetch none (typed URL)", &Policy{}, with(get("localhost:3000"), site("none")), ""},
		{"fetch cross-site", &Policy{}, with(get("localhost:3000"), site("cross-site")), RuleFetchSite},
		{"fetch same-site", &Policy{}, with(get("localhost:3000"), site("same-site")), RuleFetchSite},
		{"fetch unknown", &Policy{}, with(get("localhost:3000"), site("bogus")), RuleFetchSite},
		{"cross-site with same origin", &Policy{}, with(get("localhost:3000"), func(q *Request) {
			origin("http://localhost:3000")(q)
			site("cross-site")(q)
		}), RuleFetchSite},
		// Content-Type
		{"json post", &Policy{}, with(get("localhost:3000"), post("application/json", true)), ""},
		{"json charset", &Policy{}, with(get("localhost:3000"), post("application/json; charset=utf-8", true)), ""},
		{"json upper", &Policy{}, with(get("localhost:3000"), post("Application/JSON", true)), ""},
		{"text/plain post", &Policy{}, with(get("localhost:3000"), post("text/plain", true)), RuleContentType},
		{"form post", &Policy{}, with(get("localhost:3000"), post("application/x-www-form-urlencoded", true)), RuleContentType},
		{"multipart post", &Policy{}, with(get("localhost:3000"), post("multipart/form-data; boundary=x", true)), RuleContentType},
		{"json-like type", &Policy{}, with(get("localhost:3000"), post("application/json-patch+json", true)), RuleContentType},
		{"malformed type", &Policy{}, with(get("localhost:3000"), post("application/json;;", true)), RuleContentType},
		{"body without type", &Policy{}, with(get("localhost:3000"), post("", true)), RuleContentType},
		{"bodyless post without type", &Policy{}, with(get("localhost:3000"), post("", false)), ""},
		{"bodyless delete (MCP session end)", &Policy{}, Request{Method: "DELETE", Host: "127.0.0.1:3000", LocalPort: 3000}, ""},
		{"text/plain delete", &Policy{}, Request{Method: "DELETE", Host: "127.0.0.1:3000", LocalPort: 3000, ContentType: "text/plain", HasBody: true}, RuleContentType},
		{"put text", &Policy{}, Request{Method: "PUT", Host: "127.0.0.1:3000", LocalPort: 3000, ContentType: "text/plain"}, RuleContentType},
		{"patch json", &Policy{}, Request{Method: "PATCH", Host: "127.0.0.1:3000", LocalPort: 3000, ContentType: "application/json", HasBody: true}, ""},
		{"get with text body", &Policy{}, with(get("localhost:3000"), func(q *Request) { q.ContentType, q.HasBody = "text/plain", true }), ""},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			got := tt.p.Check(tt.q)
			var rule Rule
			if got != nil {
				rule = got.Rule
				if got.Reason == "" {
					t.Error("refusal without a reason")
				}
			}
			if rule != tt.want {
				t.Errorf("Check(%+v) = %v, want rule %q", tt.q, got, tt.want)
			}
		})
	}
}

func FuzzPolicyCheck(f *testing.F) {
	f.Add("localhost:3000", "http://localhost:3000", "same-origin", "POST", "application/json")
	f.Add("[::1]:3000", "null", "cross-site", "DELETE", "")
	f.Add("evil:3000", "http://evil:3000", "none", "GET", "text/plain")
	p := &Policy{AllowedHosts: []string{"paige.test", "[fd00::1]:3000"}, AllowedOrigins: []string{"app://x"}}
	f.Fuzz(func(t *testing.T, host, origin, site, method, ct string) {
		q := Request{Method: method, Host: host, Origin: origin, HasOrigin: origin != "", SecFetchSite: site,
			ContentType: ct, HasBody: true, LocalPort: 3000}
		ref := p.Check(q)
		// Whatever the input, a request the policy lets through from a
		// browser is same-origin or listed, and its host is acceptable.
		if ref == nil {
			if !p.hostAllowed(host, 3000) {
				t.Fatalf("host %q allowed", host)
			}
			if q.HasOrigin && !sameOrigin(origin, host) && !p.originListed(origin) {
				t.Fatalf("origin %q allowed for host %q", origin, host)
			}
		}
	})
}

// RequestFacts finds the port of the listener that accepted the request,
// over IPv4 and IPv6 loopback, as a real server serves it.
func TestRequestFactsLocalPort(t *testing.T) {
	for _, network := range []string{"127.0.0.1:0", "[::1]:0"} {
		ln, err := net.Listen("tcp", network)
		if err != nil && network != "127.0.0.1:0" {
			t.Logf("%s: %v (no IPv6 loopback here)", network, err)
			continue
		} else if err != nil {
			t.Fatal(err)
		}
		got := make(chan Request, 1)
		srv := &http.Server{Handler: http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) { got <- RequestFacts(r) })}
		go func() { _ = srv.Serve(ln) }()
		res, err := http.Get("http://" + ln.Addr().String() + "/")
		if err != nil {
			t.Fatal(err)
		}
		res.Body.Close()
		_ = srv.Close()
		want := netip.MustParseAddrPort(ln.Addr().String()).Port()
		if q := <-got; q.LocalPort != int(want) || q.LocalPort == 0 {
			t.Errorf("%s: LocalPort %d, want %d", ln.Addr(), q.LocalPort, want)
		}
	}
}
