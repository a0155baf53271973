package config

import (
	"errors"
	"fmt"
	"net"
	"net/netip"
	"net/url"
	"strconv"
	"strings"
	"time"
)

// loadSecurity reads PAIGE_ALLOWED_HOSTS, PAIGE_ALLOWED_ORIGINS and
// PAIGE_MCP_SESSION_TIMEOUT into c, joining an error per malformed one.
func (c *Config) loadSecurity(env func(string) string) error {
	var errHosts, errOrigins, errTimeout error
	c.AllowedHosts, errHosts = parseList(env("PAIGE_ALLOWED_HOSTS"), "PAIGE_ALLOWED_HOSTS", ParseHost)
	c.AllowedOrigins, errOrigins = parseList(env("PAIGE_ALLOWED_ORIGINS"), "PAIGE_ALLOWED_ORIGINS", ParseOrigin)
	c.MCPSessionTimeout = DefaultMCPSessionTimeout
	if v := strings.TrimSpace(env("PAIGE_MCP_SESSION_TIMEOUT")); v != "" {
		d, err := time.ParseDuration(v)
		if err != nil || d <= 0 {
			errTimeout = fmt.Errorf("PAIGE_MCP_SESSION_TIMEOUT must be a positive duration such as 30m or 1h, got %q", v)
		} else {
			c.MCPSessionTimeout = d
		}
	}
	return errors.Join(errHosts, errOrigins, errTimeout)
}

// parseList parses a comma-separated list with parse, naming the variable
// and the entry in its error. Empty entries are skipped.
func parseList(v, name string, parse func(string) (string, error)) ([]string, error) {
	var out []string
	for _, e := range strings.Split(v, ",") {
		if e = strings.TrimSpace(e); e == "" {
			continue
		}
		p, err := parse(e)
		if err != nil {
			return nil, fmt.Errorf("%s: %q: %w", name, e, err)
		}
		out = append(out, p)
	}
	return out, nil
}

// ParseHost validates one PAIGE_ALLOWED_HOSTS entry, a Host header value:
// a host name or IP address, optionally with a port ("paige.test",
// "box.lan:8080", "[fd00::1]:3000"). It returns the entry lowercase, IPv6
// addresses in brackets. Wildcards, schemes and paths are errors.
func ParseHost(entry string) (string, error) {
	e := strings.ToLower(strings.TrimSpace(entry))
	if strings.Contains(e, "://") {
		return "", fmt.Errorf("a host, not a URL (drop the scheme)")
	}
	if h, p, err := net.SplitHostPort(e); err == nil {
		if n, err := strconv.Atoi(p); err != nil || n < 1 || n > 65535 {
			return "", fmt.Errorf("port must be 1-65535")
		}
		if err := validHostName(h); err != nil {
			return "", err
		}
		return net.JoinHostPort(h, p), nil
	}
	name := strings.TrimSuffix(strings.TrimPrefix(e, "["), "]")
	if err := validHostName(name); err != nil {
		return "", err
	}
	if strings.Contains(name, ":") {
		return "[" + name + "]", nil
	}
	return name, nil
}

// validHostName accepts an IP address or a DNS name of letters, digits,
// '-', '_' and dots.
func validHostName(h string) error {
	if h == "" {
		return fmt.Errorf("empty host")
	}
	if ip, err := netip.ParseAddr(h); err == nil {
		if ip.Zone() != "" {
			return fmt.Errorf("zoned IPv6 addresses are not supported")
		}
		return nil
	}
	for _, r := range h {
		if !(r >= 'a' && r <= 'z' || r >= '0' && r <= '9' || r == '-' || r == '_' || r == '.') {
			return fmt.Errorf("invalid character %q in host name (no wildcards)", r)
		}
	}
	return nil
}

// ParseOrigin validates one PAIGE_ALLOWED_ORIGINS entry, a browser origin
// "scheme://host[:port]" (e.g. "vscode-webview://abc123",
// "http://localhost:5173"), and returns it lowercase without a trailing
// slash. "null", "*", paths, queries and user info are errors: an origin
// list is exact.
func ParseOrigin(entry string) (string, error) {
	e := strings.TrimSpace(entry)
	if strings.EqualFold(e, "null") || e == "*" {
		return "", fmt.Errorf("%s cannot be allowed: list exact origins", e)
	}
	u, err := url.Parse(e)
	if err != nil {
		return "", fmt.Errorf("not a URL: %v", err)
	}
	switch {
	case u.Scheme == "" || u.Host == "":
		return "", fmt.Errorf("an origin is scheme://host[:port]")
	case u.User != nil || (u.Path != "" && u.Path != "/") || u.RawQuery != "" || u.Fragment != "":
		return "", fmt.Errorf("an origin has no user, path, query or fragment")
	case strings.ContainsAny(u.Host, "*"):
		return "", fmt.Errorf("wildcards are not supported")
	}
	return strings.ToLower(u.Scheme + "://" + u.Host), nil
}
