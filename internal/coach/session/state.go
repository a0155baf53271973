package session

import (
	"cmp"
	"fmt"
	"slices"

	"github.com/paige-dev/paige/internal/coach/limits"
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
// highlights its file now has. Beyond [limits.Highlights] highlights over
// all files it is refused with a [*limits.Error].
func (s *Service) AddHighlight(h Highlight) (Highlight, int, error) {
	p, err := s.Normalize(h.Path)
	if err != nil {
		return h, 0, err
	}
	h.Path = p
	s.mu.Lock()
	defer s.mu.Unlock()
	if s.nHighlights >= limits.Highlights {
		return h, 0, &limits.Error{Field: "highlights (accumulated; clear them first)", Limit: limits.Highlights,
			Actual: s.nHighlights + 1, Unit: "items"}
	}
	s.highlights[p] = append(s.highlights[p], h)
	s.nHighlights++
	return h, len(s.highlights[p]), nil
}

// ClearHighlights removes the highlights of path, or of every file when path
// is "". It returns the normalised path ("" for all).
func (s *Service) ClearHighlights(path string) (string, error) {
	if path == "" {
		s.mu.Lock()
		s.highlights = map[string][]Highlight{}
		s.nHighlights = 0
		s.mu.Unlock()
		return "", nil
	}
	p, err := s.Normalize(path)
	if err != nil {
		return "", err
	}
	s.mu.Lock()
	s.nHighlights -= len(s.highlights[p])
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

// AddHints adds explorer hints (paths normalised) and returns the added
// ones, one per path (the last of a path given twice wins). Hints
// accumulate like highlights; a path hinted again takes the new style and
// moves to the end. Normalisation and de-duplication run before the lock;
// under it the work is one map operation per hint, so a large call never
// holds up the other users of the session. A call that would make the
// session hold more than [Options.MaxHints] hints is refused with a
// [*limits.Error] and changes nothing.
func (s *Service) AddHints(hints []Hint) ([]Hint, error) {
	out, err := s.normalizeHints(hints)
	if err != nil {
		return nil, err
	}
	s.mu.Lock()
	defer s.mu.Unlock()
	added := 0
	for _, h := range out {
		if _, ok := s.hints[h.Path]; !ok {
			added++
		}
	}
	if n := len(s.hints) + added; n > s.opts.MaxHints {
		return nil, &limits.Error{Field: "hints (accumulated; clear them first)", Limit: s.opts.MaxHints, Actual: n, Unit: "items"}
	}
	for _, h := range out {
		s.hintSeq++
		s.hints[h.Path] = hintEntry{Hint: h, seq: s.hintSeq}
	}
	return out, nil
}

// normalizeHints normalises the paths of hints and keeps the last hint of
// each path, in the order of those last occurrences.
func (s *Service) normalizeHints(hints []Hint) ([]Hint, error) {
	norm := make([]Hint, 0, len(hints))
	last := make(map[string]int, len(hints))
	for _, h := range hints {
		p, err := s.Normalize(h.Path)
		if err != nil {
			return nil, err
		}
		h.Path = p
		last[p] = len(norm)
		norm = append(norm, h)
	}
	out := make([]Hint, 0, len(last))
	for i, h := range norm {
		if last[h.Path] == i {
			out = append(out, h)
		}
	}
	return out, nil
}

// hintEntry is one accumulated hint; seq orders hints by when they were
// last set.
type hintEntry struct {
	Hint
	seq uint64
}

// ClearHints removes every explorer hint.
func (s *Service) ClearHints() {
	s.mu.Lock()
	s.hints = map[string]hintEntry{}
	s.mu.Unlock()
}

// Hints returns the current explorer hints, oldest first; never nil. The
// lock is held only to copy them.
func (s *Service) Hints() []Hint {
	s.mu.Lock()
	entries := make([]hintEntry, 0, len(s.hints))
	for _, e := range s.hints {
		entries = append(entries, e)
	}
	s.mu.Unlock()
	slices.SortFunc(entries, func(a, b hintEntry) int { return cmp.Compare(a.seq, b.seq) })
	out := make([]Hint, len(entries))
	for i, e := range entries {
		out[i] = e.Hint
	}
	return out
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
