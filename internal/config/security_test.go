package config

import (
	"strings"
	"testing"
	"time"

	"github.com/google/go-cmp/cmp"
)

func TestLoadSecurity(t *testing.T) {
	c, err := Load(env(map[string]string{
		"PAIGE_ALLOWED_HOSTS":       " Paige.Test , box.lan:8080,,[FD00::1]:3000, fd00::2 ",
		"PAIGE_ALLOWED_ORIGINS":     "vscode-webview://ABC123, http://localhost:5173/",
		"PAIGE_MCP_SESSION_TIMEOUT": "90s",
	}))
	if err != nil {
		t.Fatal(err)
	}
	if diff := cmp.Diff([]string{"paige.test", "box.lan:8080", "[fd00::1]:3000", "[fd00::2]"}, c.AllowedHosts); diff != "" {
		t.Errorf("hosts (-want +got):\n%s", diff)
	}
	if diff := cmp.Diff([]string{"vscode-webview://abc123", "http://localhost:5173"}, c.AllowedOrigins); diff != "" {
		t.Errorf("origins (-want +got):\n%s", diff)
	}
	if c.MCPSessionTimeout != 90*time.Second {
		t.Errorf("timeout = %v, want 90s", c.MCPSessionTimeout)
	}
}

func TestLoadSecurityErrors(t *testing.T) {
	tests := []struct{ name, value, want string }{
		{"PAIGE_ALLOWED_HOSTS", "http://paige.test", "not a URL"},
		{"PAIGE_ALLOWED_HOSTS", "*.evil", "wildcards"},
		{"PAIGE_ALLOWED_HOSTS", "paige.test:0", "port"},
		{"PAIGE_ALLOWED_HOSTS", "paige.test:http", "port"},
		{"PAIGE_ALLOWED_HOSTS", "a/b", "invalid character"},
		{"PAIGE_ALLOWED_HOSTS", "[fe80::1%eth0]", "zoned"},
		{"PAIGE_ALLOWED_ORIGINS", "null", "cannot be allowed"},
		{"PAIGE_ALLOWED_ORIGINS", "*", "cannot be allowed"},
		{"PAIGE_ALLOWED_ORIGINS", "localhost:5173", "scheme://host"},
		{"PAIGE_ALLOWED_ORIGINS", "http://localhost:5173/app", "no user, path"},
		{"PAIGE_ALLOWED_ORIGINS", "http://*.example", "wildcards"},
		{"PAIGE_ALLOWED_ORIGINS", "file://", "scheme://host"},
		{"PAIGE_MCP_SESSION_TIMEOUT", "30", "positive duration"},
		{"PAIGE_MCP_SESSION_TIMEOUT", "0s", "positive duration"},
		{"PAIGE_MCP_SESSION_TIMEOUT", "-1m", "positive duration"},
	}
	for _, tt := range tests {
		t.Run(tt.name+"="+tt.value, func(t *testing.T) {
			_, err := Load(env(map[string]string{tt.name: tt.value}))
			if err == nil || !strings.Contains(err.Error(), tt.name) || !strings.Contains(err.Error(), tt.want) {
				t.Errorf("err = %v, want one naming %s and saying %q", err, tt.name, tt.want)
			}
		})
	}
}

func FuzzParseOrigin(f *testing.F) {
	for _, s := range []string{"http://localhost:5173", "null", "vscode-webview://x", "http://a/b", "://"} {
		f.Add(s)
	}
	f.Fuzz(func(t *testing.T, s string) {
		o, err := ParseOrigin(s)
		if err != nil {
			return
		}
		if o == "null" || strings.Contains(o, "*") || !strings.Contains(o, "://") || strings.Count(o, "/") != 2 {
			t.Fatalf("ParseOrigin(%q) = %q", s, o)
		}
	})
}

func FuzzParseHost(f *testing.F) {
	for _, s := range []string{"paige.test", "box:8080", "[::1]:3000", "::1", "http://x"} {
		f.Add(s)
	}
	f.Fuzz(func(t *testing.T, s string) {
		h, err := ParseHost(s)
		if err != nil {
			return
		}
		if h == "" || strings.ContainsAny(h, "/*@ ") || h != strings.ToLower(h) {
			t.Fatalf("ParseHost(%q) = %q", s, h)
		}
	})
}
