package server

import (
	"encoding/json"
	"net/http"
	"net/http/httptest"
	"testing"
	"time"
)

func TestHandleHealthWithExtraFields(t *testing.T) {
	start := time.Unix(1000, 0)
	h := HandleHealthWith(start, func() time.Time { return start.Add(2 * time.Second) },
		map[string]any{"dataDir": "/d", "status": "overridden?"})
	rec := httptest.NewRecorder()
	h.ServeHTTP(rec, httptest.NewRequest(http.MethodGet, "/health", nil))
	var body map[string]any
	if err := json.Unmarshal(rec.Body.Bytes(), &body); err != nil {
		t.Fatal(err)
	}
	if body["status"] != "ok" || body["uptime"] != 2.0 || body["dataDir"] != "/d" {
		t.Errorf("body = %v", body)
	}
}
