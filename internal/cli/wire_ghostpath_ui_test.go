package cli

import (
	"context"
	"io"
	"net/http"
	"net/http/httptest"
	"strings"
	"testing"
)

func TestWireGhostPathUI(t *testing.T) {
	a := &app{log: newLogger(io.Discard, "text", "error")}
	mux := newRouteMux()
	if err := wireGhostPathUI(context.Background(), a, mux); err != nil {
		t.Fatalf("wireGhostPathUI: %v", err)
	}
	tests := []struct {
		path       string
		wantStatus int
		wantBody   string
	}{
		{"/ghostpath/", 200, `<div id="root">`},
		{"/ghostpath/sessions/0192-x/report", 200, `<div id="root">`},
		{"/ghostpath/favicon.svg", 200, "<svg"},
		{"/ghostpath", http.StatusTemporaryRedirect, ""}, // ServeMux's redirect to the subtree
		{"/ghostpath/assets/missing.js", 404, ""},
	}
	for _, tt := range tests {
		t.Run(tt.path, func(t *testing.T) {
			rec := httptest.NewRecorder()
			mux.ServeHTTP(rec, httptest.NewRequest("GET", tt.path, nil))
			if rec.Code != tt.wantStatus {
				t.Errorf("status: got %d, want %d", rec.Code, tt.wantStatus)
			}
			if rec.Code/100 == 3 && rec.Header().Get("Location") != "/ghostpath/" {
				t.Errorf("Location: got %q, want /ghostpath/", rec.Header().Get("Location"))
			}
			if !strings.Contains(rec.Body.String(), tt.wantBody) {
				t.Errorf("body: got %.80q, want it to contain %q", rec.Body.String(), tt.wantBody)
			}
		})
	}
}
