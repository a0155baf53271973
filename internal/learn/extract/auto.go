package extract

import (
	"context"
	"fmt"
	"log/slog"
	"net/http"
	"strings"
	"time"

	"github.com/paige-dev/paige/internal/learn"
	"github.com/paige-dev/paige/internal/learn/classify"
	"github.com/paige-dev/paige/internal/llm"
)

// The modes of PAIGE_EXTRACTOR (see [Select]).
const (
	ModeAuto      = "auto"      // heuristics everywhere, a model on candidate turns when one is configured
	ModeHeuristic = "heuristic" // never a model
	ModeModel     = "model"     // the model on every signal turn
)

// Auto is PAIGE_EXTRACTOR=auto: the heuristics on every turn and, when
// Model is set, the model on the turns the classifier flags as candidates
// ([classify.Candidate]), each with the assistant turns around it. The
// model's entries come first, so the heuristics' restatement of the same
// thing is dropped as a duplicate by meaning. A model failure is the
// chunk's error (the transcript is not marked extracted and is read again
// next time). With no Model, Auto is the heuristics and is named
// "heuristic".
type Auto struct {
	Model Extractor // nil: heuristics only
	Now   func() time.Time
}

var _ Extractor = (*Auto)(nil)

// Name returns "heuristic" without a model, else "auto+<model name>".
func (a *Auto) Name() string {
	if a.Model == nil {
		return "heuristic"
	}
	return "auto+" + a.Model.Name()
}

// Extract implements [Extractor].
func (a *Auto) Extract(ctx context.Context, turns []learn.Turn, source string) ([]learn.Entry, error) {
	return a.ExtractAnalysed(ctx, turns, analyze(turns), source)
}

var _ AnalysedExtractor = (*Auto)(nil)

// ExtractAnalysed implements [AnalysedExtractor].
func (a *Auto) ExtractAnalysed(ctx context.Context, turns []learn.Turn, analyses []classify.Analysis, source string) ([]learn.Entry, error) {
	heur, _ := Heuristic{Now: a.Now}.ExtractAnalysed(ctx, turns, analyses, source)
	if a.Model == nil {
		return heur, nil
	}
	var picked []int
	for i, t := range turns {
		if t.Role == learn.User && classify.Candidate(analyses[i]) {
			picked = append(picked, i)
		}
	}
	if len(picked) == 0 {
		return heur, nil
	}
	model, err := a.Model.Extract(ctx, WithContext(turns, picked), source)
	if err != nil {
		return nil, err
	}
	return append(model, heur...), nil
}

// prevText is the assistant text the user turn at i answered, if any.
func prevText(turns []learn.Turn, i int) string {
	if i > 0 && turns[i-1].Role == learn.Assistant {
		return turns[i-1].Content
	}
	return ""
}

// WithContext returns the turns at the indexes idx together with the
// assistant turn before and after each (what the user answered and how
// the assistant responded), in transcript order, each turn once.
func WithContext(turns []learn.Turn, idx []int) []learn.Turn {
	ci := ContextIndexes(turns, idx)
	out := make([]learn.Turn, len(ci))
	for j, i := range ci {
		out[j] = turns[i]
	}
	return out
}

// ContextIndexes is [WithContext] as indexes into turns.
func ContextIndexes(turns []learn.Turn, idx []int) []int {
	var out []int
	last := -1
	add := func(i int) {
		if i > last && i >= 0 && i < len(turns) {
			out = append(out, i)
			last = i
		}
	}
	for _, i := range idx {
		if i > 0 && turns[i-1].Role == learn.Assistant {
			add(i - 1)
		}
		add(i)
		if i+1 < len(turns) && turns[i+1].Role == learn.Assistant {
			add(i + 1)
		}
	}
	return out
}

// Select returns the extractor of mode (PAIGE_EXTRACTOR: [ModeAuto] when
// empty, [ModeHeuristic], [ModeModel]) with the model spec names (see
// [New]; "" means no model is configured):
//
//   - heuristic, or spec "heuristic": [Heuristic];
//   - auto: [Auto] with the model of spec, or without a model when spec is
//     empty (then it is the heuristics, silently);
//   - model: the model of spec on every signal turn; no model is an error
//     wrapping [llm.ErrNoModel].
//
// A spec that names a model that is not available (a Claude tier without
// a key) is an error in every mode but heuristic. log receives warnings
// about model items dropped as invalid.
func Select(mode, spec string, client *llm.Client, ollamaURL string, httpClient *http.Client, log *slog.Logger) (Extractor, error) {
	mode = strings.ToLower(strings.TrimSpace(mode))
	spec = strings.TrimSpace(spec)
	if mode == ModeHeuristic || strings.EqualFold(spec, "heuristic") {
		return Heuristic{}, nil
	}
	switch mode {
	case "", ModeAuto, ModeModel:
	default:
		return nil, fmt.Errorf("PAIGE_EXTRACTOR %q: use auto, heuristic or model", mode)
	}
	if spec == "" {
		if mode == ModeModel {
			return nil, fmt.Errorf("PAIGE_EXTRACTOR=model: %w (set ANTHROPIC_API_KEY or PAIGE_LEARN_MODEL)", llm.ErrNoModel)
		}
		return &Auto{}, nil
	}
	m, err := New(spec, client, ollamaURL, httpClient)
	if err != nil {
		return nil, err
	}
	switch x := m.(type) {
	case *Claude:
		x.Log = log
	case *Ollama:
		x.Log = log
	}
	if mode == ModeModel {
		return m, nil
	}
	return &Auto{Model: m}, nil
}

func (h Heuristic) now() time.Time {
	if h.Now != nil {
		return h.Now()
	}
	return time.Now()
}
