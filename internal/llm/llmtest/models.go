package llmtest

import (
	"encoding/json"
	"net/http"
	"time"
)

// Model is one entry of the fake Models API.
type Model struct {
	ID          string
	DisplayName string    // empty: the ID
	CreatedAt   time.Time // zero: 2026-01-01
}

// SetModels sets the models GET /v1/models lists (in this order) and GET
// /v1/models/{id} finds; others answer 404 not_found_error. A new Server
// lists none.
func (s *Server) SetModels(models ...Model) {
	s.mu.Lock()
	defer s.mu.Unlock()
	s.models = append([]Model(nil), models...)
}

// ModelRequests returns the headers of every Models API request, in
// arrival order, so tests can check the key and version sent.
func (s *Server) ModelRequests() []http.Header {
	s.mu.Lock()
	defer s.mu.Unlock()
	return append([]http.Header(nil), s.modelReqs...)
}

type wireModel struct {
	Type        string `json:"type"`
	ID          string `json:"id"`
	DisplayName string `json:"display_name"`
	CreatedAt   string `json:"created_at"`
}

func (m Model) wire() wireModel {
	w := wireModel{Type: "model", ID: m.ID, DisplayName: m.DisplayName, CreatedAt: m.CreatedAt.UTC().Format(time.RFC3339)}
	if w.DisplayName == "" {
		w.DisplayName = m.ID
	}
	if m.CreatedAt.IsZero() {
		w.CreatedAt = "2026-01-01T00:00:00Z"
	}
	return w
}

// modelsFor records the request and returns the models, or false after
// answering 401 when the request carries no x-api-key.
func (s *Server) modelsFor(w http.ResponseWriter, r *http.Request) ([]Model, bool) {
	s.mu.Lock()
	s.modelReqs = append(s.modelReqs, r.Header.Clone())
	models := append([]Model(nil), s.models...)
	s.mu.Unlock()
	if r.Header.Get("x-api-key") == "" {
		writeError(w, http.StatusUnauthorized, "authentication_error", "x-api-key header is required", -1)
		return nil, false
	}
	return models, true
}

// handleModels answers the whole list in one page.
func (s *Server) handleModels(w http.ResponseWriter, r *http.Request) {
	models, ok := s.modelsFor(w, r)
	if !ok {
		return
	}
	page := struct {
		Data    []wireModel `json:"data"`
		HasMore bool        `json:"has_more"`
		FirstID *string     `json:"first_id"`
		LastID  *string     `json:"last_id"`
	}{Data: []wireModel{}}
	for _, m := range models {
		page.Data = append(page.Data, m.wire())
	}
	if n := len(page.Data); n > 0 {
		page.FirstID, page.LastID = &page.Data[0].ID, &page.Data[n-1].ID
	}
	w.Header().Set("Content-Type", "application/json")
	_ = json.NewEncoder(w).Encode(page)
}

// handleModel answers one model by id.
func (s *Server) handleModel(w http.ResponseWriter, r *http.Request) {
	models, ok := s.modelsFor(w, r)
	if !ok {
		return
	}
	id := r.PathValue("id")
	for _, m := range models {
		if m.ID == id {
			w.Header().Set("Content-Type", "application/json")
			_ = json.NewEncoder(w).Encode(m.wire())
			return
		}
	}
	writeError(w, http.StatusNotFound, "not_found_error", "model: "+id, -1)
}
