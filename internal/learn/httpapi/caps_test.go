package httpapi

import (
	"encoding/json"
	"fmt"
	"strings"
	"testing"

	"github.com/paige-dev/paige/internal/learn/chat"
)

// TestOverCapInputs: every over-cap input is answered 413 with the field,
// the limit and the actual size (issue 29), never accepted, never a 500,
// and nothing is stored.
func TestOverCapInputs(t *testing.T) {
	e := start(t, nil, false)
	var ss chat.Session
	if code := call(t, "POST", e.url+"/api/chat/sessions", `{"name":"pairing"}`, &ss); code != 201 {
		t.Fatalf("create: %d", code)
	}
	big := func(n int) string { return strings.Repeat("a", n) }
	for _, tc := range []struct {
		name, method, path, body, field string
		limit, actual                   int
	}{
		{"chat message", "POST", "/api/chat/sessions/" + ss.ID + "/messages", jsonBody(map[string]string{"content": big(500 << 10)}), "content", MaxMessageBytes, 500 << 10},
		{"streamed chat message", "POST", "/api/chat/sessions/" + ss.ID + "/stream", jsonBody(map[string]string{"content": big(200 << 10)}), "content", MaxMessageBytes, 200 << 10},
		{"session name", "POST", "/api/chat/sessions", jsonBody(map[string]string{"name": big(1_000_000)}), "name", MaxNameBytes, 1_000_000},
		{"hard_rule preprompt", "POST", "/api/chat/preprompts", jsonBody(map[string]any{"name": "r", "type": "hard_rule", "content": big(200 << 10)}), "content", MaxPrepromptBytes, 200 << 10},
		{"preprompt name", "POST", "/api/chat/preprompts", jsonBody(map[string]any{"name": big(300), "type": "core", "content": "c"}), "name", MaxNameBytes, 300},
		{"transcript path", "POST", "/api/extract", jsonBody(map[string]any{"transcriptPath": "/" + big(5000)}), "transcriptPath", MaxPathBytes, 5001},
		{"body", "POST", "/api/chat/sessions/" + ss.ID + "/messages", jsonBody(map[string]string{"content": big(2 << 20)}), "body", MaxBodyBytes, 2<<20 + len(`{"content":""}`)},
	} {
		t.Run(tc.name, func(t *testing.T) {
			var got map[string]any
			code := call(t, tc.method, e.url+tc.path, tc.body, &got)
			want := fmt.Sprintf("%s: %d bytes, over the limit of %d", tc.field, tc.actual, tc.limit)
			if code != 413 || got["error"] != want || got["field"] != tc.field ||
				got["limit"] != float64(tc.limit) || got["actual"] != float64(tc.actual) {
				raw, _ := json.Marshal(got)
				t.Errorf("%d %.300s; want 413 %q", code, raw, want)
			}
		})
	}
	var sessions struct{ Sessions []chat.Session }
	call(t, "GET", e.url+"/api/chat/sessions", "", &sessions)
	var msgs struct{ Messages []chat.Message }
	call(t, "GET", e.url+"/api/chat/sessions/"+ss.ID+"/messages", "", &msgs)
	var pps struct{ Preprompts []json.RawMessage }
	call(t, "GET", e.url+"/api/chat/preprompts", "", &pps)
	if len(sessions.Sessions) != 1 || len(msgs.Messages) != 0 || len(e.llm.Requests()) != 0 {
		t.Errorf("stored: %d sessions, %d messages, %d model calls; want 1, 0, 0", len(sessions.Sessions), len(msgs.Messages), len(e.llm.Requests()))
	}
	before := len(pps.Preprompts)
	// At the caps, everything is accepted.
	if code := call(t, "POST", e.url+"/api/chat/sessions", jsonBody(map[string]string{"name": big(MaxNameBytes)}), nil); code != 201 {
		t.Errorf("a name at the cap: %d", code)
	}
	if code := call(t, "POST", e.url+"/api/chat/preprompts", jsonBody(map[string]any{"name": "r", "type": "hard_rule", "content": big(MaxPrepromptBytes)}), nil); code != 201 {
		t.Errorf("a preprompt at the cap: %d", code)
	}
	call(t, "GET", e.url+"/api/chat/preprompts", "", &pps)
	if len(pps.Preprompts) != before+1 {
		t.Errorf("preprompts: %d, want %d", len(pps.Preprompts), before+1)
	}
}
