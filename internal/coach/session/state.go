package session

import (
	"fmt"
	"slices"
)

// Highlight is one accumulated editor:highlight_lines decoration (D28).
type Highlight struct {
	Path      string `json:"path"`
	Start     int    `json:"start"`
	End       int    `json:"end"`
	Style     string `json:"style"`
	HoverText string `json:"hoverText,omitempty"`
}

// Hint is one explorer file hint.
type Hint struct {
	Path        string   `json:"path"`
	Style       string   `json:"style"`
	Directories []string `json:"directories,omitempty"`
}

// Normalize returns the key path uses in the open-files set and highlights.
func (s *Service) Normalize(path string) (string, error) {
	p, err := s.opts.Normalize(path)
	if err != nil {
		return "", err
	}
	if p == "" {
		return "", fmt.Errorf("path %q: empty", path)
	}
	return p, nil
}

// OpenFile adds path to the open-files set (file:open, paige_open_file) and
// returns its normalised form. Adding a path twice keeps one entry.
func (s *Service) OpenFile(path string) (string, error) {
	p, err := s.Normalize(path)
	if err != nil {
		return "", err
	}
	s.mu.Lock()
	defer s.mu.Unlock()
	if !slices.Contains(s.openFiles, p) {
		s.openFiles = append(s.openFiles, p)
	}
	return p, nil
}

// CloseFile removes path from the open-files set (file:close) and returns
// its normalised form. Closing a path that is not open does nothing.
func (s *Service) CloseFile(path string) (string, error) {
	p, err := s.Normalize(path)
	if err != nil {
		return "", err
	}
	s.mu.Lock()
	defer s.mu.Unlock()
	s.openFiles = slices.DeleteFunc(s.openFiles, func(x string) bool { return x == p })
	return p, nil
}

// OpenFiles returns the open-files set in the order files were opened; never nil.
func (s *Service) OpenFiles() []string {
	s.mu.Lock()
	defer s.mu.Unlock()
	return append([]string{}, s.openFiles...)
}

// AddHighlight accumulates h (its Path normalised) and returns how many
// highlights its file now has.
func (s *Service) AddHighlight(h Highlight) (Highlight, int, error) {
	p, err := s.Normalize(h.Path)
	if err != nil {
		return h, 0, err
	}
	h.Path = p
	s.mu.Lock()
	defer s.mu.Unlock()
	s.highlights[p] = append(s.highlights[p], h)
	return h, len(s.highlights[p]), nil
}

// ClearHighlights removes the highlights of path, or of every file when path
// is "". It returns the normalised path ("" for all).
func (s *Service) ClearHighlights(path string) (string, error) {
	if path == "" {
		s.mu.Lock()
		s.highlights = map[string][]Highlight{}
		s.mu.Unlock()
		return "", nil
	}
	p, err := s.Normalize(path)
	if err != nil {
		return "", err
	}
	s.mu.Lock()
	delete(s.highlights, p)
	s.mu.Unlock()
	return p, nil
}

// Highlights returns the accumulated highlights by normalised path; never nil.
func (s *Service) Highlights() map[string][]Highlight {
	s.mu.Lock()
	defer s.mu.Unlock()
	out := make(map[string][]Highlight, len(s.highlights))
	for p, hs := range s.highlights {
		out[p] = append([]Highlight{}, hs...)
	}
	return out
}

// AddHints adds explorer hints (paths normalised) and returns the added ones.
// Hints accumulate like highlights; a path hinted again takes the new style.
func (s *Service) AddHints(hints []Hint) ([]Hint, error) {
	out := make([]Hint, 0, len(hints))
	for _, h := range hints {
		p, err := s.Normalize(h.Path)
		if err != nil {
			return nil, err
		}
		h.Path = p
		out = append(out, h)
	}
	s.mu.Lock()
	defer s.mu.Unlock()
	for _, h := range out {
		s.hints = slices.DeleteFunc(s.hints, func(x Hint) bool { return x.Path == h.Path })
		s.hints = append(s.hints, h)
	}
	return out, nil
}

// ClearHints removes every explorer hint.
func (s *Service) ClearHints() {
	s.mu.Lock()
	s.hints = nil
	s.mu.Unlock()
}

// Hints returns the current explorer hints; never nil.
func (s *Service) Hints() []Hint {
	s.mu.Lock()
	defer s.mu.Unlock()
	return append([]Hint{}, s.hints...)
}

// SetMuted records the Observer mute toggle (D62: memory only) and returns
// the previous value.
func (s *Service) SetMuted(muted bool) bool {
	s.mu.Lock()
	defer s.mu.Unlock()
	prev := s.muted
	s.muted = muted
	return prev
}

// Muted reports whether the Observer is muted.
func (s *Service) Muted() bool {
	s.mu.Lock()
	defer s.mu.Unlock()
	return s.muted
}
