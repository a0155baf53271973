package server

import (
	"encoding/json"
	"math"
	"net/http"
	"time"
)

// HandleHealth answers GET /health with {"status":"ok","uptime":<seconds>}
// (FR-004). now is injectable for tests; nil means time.Now.
func HandleHealth(start time.Time, now func() time.Time) http.Handler {
	if now == nil {
		now = time.Now
	}
	return http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		up := now().Sub(start).Seconds()
		Encode(w, http.StatusOK, map[string]any{"status": "ok", "uptime": math.Round(up*1000) / 1000})
	})
}

// Encode writes v as JSON with the given status.
func Encode(w http.ResponseWriter, status int, v any) {
	w.Header().Set("Content-Type", "application/json")
	w.WriteHeader(status)
	_ = json.NewEncoder(w).Encode(v)
}
