package loadtool

import (
	"bytes"
	"context"
	"errors"
	"flag"
	"strings"
	"testing"
)

func TestParse(t *testing.T) {
	var stderr bytes.Buffer
	fs := NewFlagSet("tool", &stderr)
	n := fs.Int("n", 1, "a number")
	if err := Parse(fs, []string{"-n", "3"}); err != nil || *n != 3 {
		t.Errorf("Parse(-n 3): n %d, %v", *n, err)
	}
	if err := Parse(NewFlagSet("tool", &stderr), []string{"extra"}); err == nil || !strings.Contains(err.Error(), `unexpected arguments ["extra"]`) {
		t.Errorf("Parse(extra): got %v", err)
	}
	if err := Parse(NewFlagSet("tool", &stderr), []string{"-nope"}); err == nil || !strings.Contains(stderr.String(), "-nope") {
		t.Errorf("Parse(-nope): got %v, usage %q", err, stderr.String())
	}
}

func TestCheckLoopback(t *testing.T) {
	for _, tc := range []struct {
		url    string
		scheme string
		ok     bool
	}{
		{"http://127.0.0.1:3000/mcp", "http", true},
		{"http://127.8.9.1/mcp", "http", true},
		{"http://[::1]:3000/mcp", "http", true},
		{"http://localhost:3000/mcp", "http", true},
		{"ws://[::1]:9/ws", "ws", true},
		{"http://10.0.0.1:3000/mcp", "http", false},
		{"http://example.com/mcp", "http", false},
		{"http://localhost.example.com/mcp", "http", false},
		{"http://0.0.0.0:3000/mcp", "http", false},
		{"https://127.0.0.1/mcp", "http", false},
		{"http://127.0.0.1:3000/ws", "ws", false},
		{"ws://example.com/ws", "ws", false},
		{"127.0.0.1:3000", "http", false},
		{"http://%zz", "http", false},
	} {
		if err := CheckLoopback(tc.url, tc.scheme, "a URL"); (err == nil) != tc.ok {
			t.Errorf("CheckLoopback(%q, %q): got %v, want ok %v", tc.url, tc.scheme, err, tc.ok)
		}
	}
	err := CheckLoopback("https://127.0.0.1/mcp", "http", "an http:// URL")
	if err == nil || err.Error() != `-url "https://127.0.0.1/mcp": want an http:// URL` {
		t.Errorf("wrong scheme: got %v", err)
	}
}

func TestMainExitCodes(t *testing.T) {
	for _, tc := range []struct {
		name     string
		parseErr error
		runErr   error
		want     int
		wantText string
	}{
		{"ok", nil, nil, 0, ""},
		{"run fails", nil, errors.New("3 calls failed"), 1, "tool: 3 calls failed\n"},
		{"bad flag", errors.New("-rate 0: want 1 to 10"), nil, 2, "tool: -rate 0: want 1 to 10\n"},
		{"help", flag.ErrHelp, nil, 2, ""},
	} {
		t.Run(tc.name, func(t *testing.T) {
			var stderr bytes.Buffer
			ran := false
			got := Main("tool", &stderr, tc.parseErr, func(ctx context.Context) error {
				ran = ctx.Err() == nil
				return tc.runErr
			})
			if got != tc.want || stderr.String() != tc.wantText {
				t.Errorf("exit %d, stderr %q; want %d, %q", got, stderr.String(), tc.want, tc.wantText)
			}
			if ran != (tc.parseErr == nil) {
				t.Errorf("run called with a live context: %v, want %v", ran, tc.parseErr == nil)
			}
		})
	}
}
