package httpapi

import (
	"context"
	"net/http"
	"time"
)

func (a *API) handleLiveness() http.Handler {
	type response struct {
		Status  string `json:"status"`
		Service string `json:"service"`
		Version string `json:"version"`
	}
	return http.HandlerFunc(func(w http.ResponseWriter, _ *http.Request) {
		a.writeJSON(w, http.StatusOK, response{"healthy", "ghostpath-api", Version})
	})
}

func (a *API) handleReadiness() http.Handler {
	return http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		ctx, cancel := context.WithTimeout(r.Context(), 2*time.Second)
		defer cancel()
		if err := a.repo.Ping(ctx); err != nil {
			a.log.Error("ghostpath: readiness: database unavailable", "err", err)
			a.writeJSON(w, http.StatusServiceUnavailable, map[string]string{"status": "not_ready", "reason": "database_unavailable"})
			return
		}
		a.writeJSON(w, http.StatusOK, map[string]any{"status": "ready", "checks": map[string]string{"database": "healthy"}})
	})
}
