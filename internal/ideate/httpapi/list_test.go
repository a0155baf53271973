package httpapi

import (
	"net/url"
	"strings"
	"testing"

	"github.com/paige-dev/paige/internal/ideate/ideatetest"
)

// TestListSearchAndPaging: GET /sessions orders by last activity, searches
// the problem text with q, and reports total and next_offset while keeping
// the old fields (sessions, pagination).
func TestListSearchAndPaging(t *testing.T) {
	e := newEnv(t)
	active := e.create("How might we cut churn in our SaaS?")
	other := e.create("How might we grow revenue?")
	newest := e.create("How might we reduce CHURN for students?")
	e.fake.Enqueue(ideatetest.FirstRound("R1")...)
	premisesOf(t, e.stream(active)) // tool calls make it the most recently active

	ids := func(m map[string]any) []string {
		var out []string
		for _, s := range m["sessions"].([]any) {
			out = append(out, s.(map[string]any)["id"].(string))
		}
		return out
	}
	page := e.json("GET", "/api/v1/sessions?limit=2", nil, 200)
	if got := ids(page); len(got) != 2 || got[0] != active || got[1] != newest {
		t.Fatalf("first page got %v, want [%s %s]", got, active, newest)
	}
	first := page["sessions"].([]any)[0].(map[string]any)
	if first["last_activity_at"].(string) <= first["created_at"].(string) || page["total"] != 3.0 || page["next_offset"] != 2.0 {
		t.Errorf("page got %v", page)
	}
	page = e.json("GET", "/api/v1/sessions?limit=2&offset=2", nil, 200)
	if got := ids(page); len(got) != 1 || got[0] != other || page["total"] != 3.0 {
		t.Errorf("last page got %v", page)
	}
	if _, has := page["next_offset"]; has {
		t.Errorf("last page has next_offset: %v", page)
	}
	found := e.json("GET", "/api/v1/sessions?q="+url.QueryEscape("churn"), nil, 200)
	if got := ids(found); len(got) != 2 || got[0] != active || got[1] != newest || found["total"] != 2.0 {
		t.Errorf("q=churn got %v", found)
	}
	if got := e.json("GET", "/api/v1/sessions?q=zebra", nil, 200); len(ids(got)) != 0 || got["total"] != 0.0 {
		t.Errorf("q=zebra got %v", got)
	}
	long := e.json("GET", "/api/v1/sessions?q="+strings.Repeat("a", 201), nil, 400)
	if errCode(long) != "VALIDATION_ERROR" {
		t.Errorf("long q got %v", long)
	}
}
