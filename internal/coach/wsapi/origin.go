package wsapi

import (
	"net"
	"net/url"
	"strings"
)

// AllowedOrigin reports whether a WebSocket upgrade with the given Origin
// header may proceed for a request to host (the request's Host header).
//
// Allowed: no Origin (non-browser clients), "null" and file:// (pages loaded
// from disk, as Electron does), Electron's app:// and electron:// schemes,
// loopback origins (localhost, 127.0.0.1, [::1], any port, http or https)
// and same-origin requests. Everything else is a cross-site page trying to
// reach the local server and is rejected.
func AllowedOrigin(origin, host string) bool {
	origin = strings.TrimSpace(origin)
	if origin == "" || origin == "null" {
		return true
	}
	u, err := url.Parse(origin)
	if err != nil {
		return false
	}
	switch strings.ToLower(u.Scheme) {
	case "file", "app", "electron":
		return true
	case "http", "https":
	default:
		return false
	}
	if u.Host == "" {
		return false
	}
	if isLoopback(u.Hostname()) {
		return true
	}
	return host != "" && strings.EqualFold(u.Host, host)
}

func isLoopback(h string) bool {
	if strings.EqualFold(h, "localhost") {
		return true
	}
	ip := net.ParseIP(h)
	return ip != nil && ip.IsLoopback()
}
