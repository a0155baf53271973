package memoryview

import (
	"encoding/json"
	"io"
	"net/http"
	"net/http/httptest"
	"strings"
	"testing"
)

func serve(t *testing.T, r *rig) *httptest.Server {
	t.Helper()
	mux := http.NewServeMux()
	AddRoutes(mux, r.svc, nil)
	srv := httptest.NewServer(mux)
	t.Cleanup(srv.Close)
	return srv
}

// call sends method path with a JSON body (none when body is "") and
// decodes the answer into out when given; it returns the status and body.
func call(t *testing.T, srv *httptest.Server, method, path, body string, out any) (int, string) {
	t.Helper()
	var rd io.Reader
	if body != "" {
		rd = strings.NewReader(body)
	}
	req, err := http.NewRequest(method, srv.URL+path, rd)
	if err != nil {
		t.Fatal(err)
	}
	if body != "" {
		req.Header.Set("Content-Type", "application/json")
	}
	res, err := http.DefaultClient.Do(req)
	if err != nil {
		t.Fatal(err)
	}
	defer res.Body.Close()
	b, _ := io.ReadAll(res.Body)
	if out != nil && res.StatusCode < 300 {
		if err := json.Unmarshal(b, out); err != nil {
			t.Fatalf("%s %s: %v in %s", method, path, err, b)
		}
	}
	return res.StatusCode, string(b)
}

func TestHTTPRoundTrip(t *testing.T) {
	r := newRig(t)
	srv := serve(t, r)
	var v View
	if st, b := call(t, srv, "GET", "/api/memory?q=pnpm", "", &v); st != 200 || len(v.Entries) != 1 || len(v.Proposals) != 1 {
		t.Fatalf("GET: %d %s", st, b)
	}
	id, pid := r.entries[0].ID, v.Proposals[0].ID
	var e Entry
	if st, b := call(t, srv, "PATCH", "/api/memory/entries/"+id, `{"content":"Start with iex -S mix phx.server","pinned":true}`, &e); st != 200 || !e.Pinned || e.Content != "Start with iex -S mix phx.server" {
		t.Fatalf("PATCH entry: %d %s", st, b)
	}
	var res struct {
		Proposal struct{ ID, Status string }
	}
	if st, b := call(t, srv, "POST", "/api/memory/proposals/"+pid+"/accept", "{}", &res); st != 200 || res.Proposal.Status != "accepted" {
		t.Fatalf("accept: %d %s", st, b)
	}
	if st, b := call(t, srv, "POST", "/api/memory/proposals/"+pid+"/reject", "", nil); st != 409 || !strings.Contains(b, "is accepted") {
		t.Errorf("reject an accepted proposal: %d %s", st, b)
	}
	if st, b := call(t, srv, "DELETE", "/api/memory/entries/"+id, "", nil); st != 200 {
		t.Errorf("DELETE entry: %d %s", st, b)
	}
	if st, b := call(t, srv, "PATCH", "/api/memory/memories/mem_s1_0", `{"content":"OAuth race: lock the refresh"}`, nil); st != 200 {
		t.Errorf("PATCH memory: %d %s", st, b)
	}
	if st, b := call(t, srv, "DELETE", "/api/memory/memories/mem_s1_1", "", nil); st != 204 {
		t.Errorf("DELETE memory: %d %s", st, b)
	}
	if st, b := call(t, srv, "GET", "/api/memory", "", &v); st != 200 || len(v.Entries) != 2 || len(v.Memories) != 1 || v.Memories[0].Content != "OAuth race: lock the refresh" || v.Forgotten != 1 {
		t.Errorf("GET after the changes: %d %s", st, b)
	}
	if gitLog(t, r.seedDir)[0][:8] != "Confirm:" {
		t.Errorf("accept made no seed commit: %q", gitLog(t, r.seedDir))
	}
}

func TestHTTPRefusals(t *testing.T) {
	r := newRig(t)
	srv := serve(t, r)
	id := r.entries[1].ID
	for _, c := range []struct {
		method, path, body string
		status             int
		says               string
	}{
		{"PATCH", "/api/memory/entries/" + id, "", 400, "body is empty"},
		{"PATCH", "/api/memory/entries/" + id, `{}`, 400, "send content, pinned or both"},
		{"PATCH", "/api/memory/entries/" + id, `{"content":"   "}`, 400, "content is empty"},
		{"PATCH", "/api/memory/entries/" + id, `{"content":"x","extra":1}`, 400, "unknown field"},
		{"PATCH", "/api/memory/entries/" + id, `{"pinned":"yes"}`, 400, "invalid JSON"},
		{"PATCH", "/api/memory/entries/" + id, `{"content":"` + strings.Repeat("x", MaxContent+1) + `"}`, 400, "limit"},
		{"PATCH", "/api/memory/entries/" + id, `{"pinned":true} {}`, 400, "one JSON value"},
		{"PATCH", "/api/memory/entries/unknown-id", `{"pinned":true}`, 404, "no learned entry"},
		{"DELETE", "/api/memory/entries/unknown-id", "", 404, "no learned entry"},
		{"POST", "/api/memory/proposals/zzzzzzzz/accept", "{}", 404, "no proposal"},
		{"POST", "/api/memory/proposals/ab/accept", "{}", 400, "too short"},
		{"PATCH", "/api/memory/memories/mem_x_0", `{"content":"y"}`, 404, "no memory"},
		{"PATCH", "/api/memory/memories/mem_s1_0", `{}`, 400, "send content"},
		{"DELETE", "/api/memory/memories/mem_x_0", "", 404, "no memory"},
		{"GET", "/api/memory?q=" + strings.Repeat("x", MaxQuery+1), "", 400, "limit"},
	} {
		st, b := call(t, srv, c.method, c.path, c.body, nil)
		if st != c.status || !strings.Contains(b, c.says) || !strings.HasPrefix(b, `{"error":`) {
			t.Errorf("%s %s %.40s: %d %s, want %d with %q", c.method, c.path, c.body, st, b, c.status, c.says)
		}
	}
	if es, _ := r.svc.Knowledge.Active(); len(es) != 3 || es[1].Pinned {
		t.Errorf("a refused request changed the store: %+v", es)
	}
}
