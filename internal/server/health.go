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
	return HandleHealthWith(start, now, nil)
}

// HandleHealthWith is [HandleHealth] with extra fields in the answer (such
// as "dataDir", which Paige's hooks and doctor compare with their own);
// "status" and "uptime" cannot be overridden.
func HandleHealthWith(start time.Time, now func() time.Time, extra map[string]any) http.Handler {
	if now == nil {
		now = time.Now
	}
	return http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		up := now().Sub(start).Seconds()
		body := map[string]any{}
		for k, v := range extra {
			body[k] = v
		}
		body["status"], body["uptime"] = "ok", math.Round(up*1000)/1000
		Encode(w, http.StatusOK, body)
	})
}

// Encode writes v as JSON with the given status.
func Encode(w http.ResponseWriter, status int, v any) {
	w.Header().Set("Content-Type", "application/json")
	w.WriteHeader(status)
	_ = json.NewEncoder(w).Encode(v)
}
