package main

import (
	"bytes"
	"context"
	"encoding/json"
	"net/http"
	"net/http/httptest"
	"os"
	"strings"
	"sync/atomic"
	"testing"

	"github.com/coder/websocket"
)

func TestParseFlags(t *testing.T) {
	for _, args := range [][]string{
		{"-url", "ws://example.com/ws"},
		{"-url", "http://127.0.0.1:3000/ws"},
		{"-mode", "burst"},
		{"-size", "10"},
		{"-conns", "0"},
		{"-duration", "0s"},
		{"extra"},
	} {
		if _, err := parseFlags(args, &bytes.Buffer{}); err == nil {
			t.Errorf("parseFlags(%q): no error", args)
		}
	}
	c, err := parseFlags([]string{"-url", "ws://[::1]:9/ws", "-mode", "idle", "-conns", "3"}, &bytes.Buffer{})
	if err != nil || c.Mode != "idle" || c.Conns != 3 {
		t.Errorf("got %+v, %v", c, err)
	}
}

// fakeEditorServer answers connection:hello with connection:init and
// session:start with session:started, and counts buffer:update frames
// whose payload carries the content.
func fakeEditorServer(t *testing.T, updates *atomic.Int64) string {
	t.Helper()
	srv := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		c, err := websocket.Accept(w, r, nil)
		if err != nil {
			return
		}
		defer c.CloseNow()
		c.SetReadLimit(1 << 20)
		for {
			_, b, err := c.Read(r.Context())
			if err != nil {
				return
			}
			var env struct {
				Type    string `json:"type"`
				Payload struct {
					Content string `json:"content"`
				} `json:"payload"`
			}
			if json.Unmarshal(b, &env) != nil {
				return
			}
			reply := map[string]string{"connection:hello": "connection:init", "session:start": "session:started"}[env.Type]
			if env.Type == "buffer:update" && strings.Contains(env.Payload.Content, "line of code") {
				updates.Add(1)
			}
			if reply != "" {
				_ = c.Write(r.Context(), websocket.MessageText, []byte(`{"type":"`+reply+`","payload":{}}`))
			}
		}
	}))
	t.Cleanup(srv.Close)
	return "ws" + strings.TrimPrefix(srv.URL, "http") + "/ws"
}

func TestRunRate(t *testing.T) {
	var updates atomic.Int64
	u := fakeEditorServer(t, &updates)
	var out bytes.Buffer
	cfg := config{URL: u, Mode: "rate", Duration: 50_000_000, Size: 2600, Session: true, SrvPID: os.Getpid()}
	if err := runRate(context.Background(), cfg, &out); err != nil {
		t.Fatal(err)
	}
	if updates.Load() == 0 {
		t.Fatal("no buffer:update reached the server")
	}
	for _, want := range []string{"msg/s", "server cpu"} {
		if !strings.Contains(out.String(), want) {
			t.Errorf("output lacks %q:\n%s", want, out.String())
		}
	}
}

func TestRunIdle(t *testing.T) {
	var updates atomic.Int64
	u := fakeEditorServer(t, &updates)
	var out bytes.Buffer
	cfg := config{URL: u, Mode: "idle", Conns: 5, SrvPID: os.Getpid()}
	if err := runIdle(context.Background(), cfg, &out); err != nil {
		t.Fatal(err)
	}
	for _, want := range []string{"5 clients connected", "server rss"} {
		if !strings.Contains(out.String(), want) {
			t.Errorf("output lacks %q:\n%s", want, out.String())
		}
	}
}

func TestFramesSizeAndDistinct(t *testing.T) {
	fs, err := frames(4, 2600)
	if err != nil {
		t.Fatal(err)
	}
	if len(fs[0]) < 2300 || len(fs[0]) > 2900 {
		t.Errorf("frame of %d bytes, want about 2600", len(fs[0]))
	}
	if bytes.Equal(fs[0], fs[1]) {
		t.Error("frames not distinct")
	}
}

func TestRealMainBadFlags(t *testing.T) {
	if code := realMain([]string{"-mode", "x"}, &bytes.Buffer{}, &bytes.Buffer{}); code != 2 {
		t.Errorf("exit %d, want 2", code)
	}
}
