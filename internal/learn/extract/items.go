package extract

import (
	"encoding/json"
	"errors"
	"fmt"
	"log/slog"
	"strings"

	"github.com/paige-dev/paige/internal/learn"
	"github.com/paige-dev/paige/internal/llm"
)

// CheckItem returns why a model's item cannot be kept, or nil: its type
// must be one of the six knowledge types, its content not empty, its
// confidence within [0, 1].
func CheckItem(it Item) error {
	switch {
	case !learn.KnowledgeType(strings.ToLower(strings.TrimSpace(it.Type))).Valid():
		return fmt.Errorf("unknown type %q", it.Type)
	case strings.TrimSpace(it.Content) == "":
		return errors.New("empty content")
	case it.Confidence < 0 || it.Confidence > 1:
		return fmt.Errorf("confidence %g out of [0, 1]", it.Confidence)
	}
	return nil
}

// keepValid returns the items of items that pass [CheckItem]; each one
// dropped is logged as a warning with its reason. One bad item never costs
// the others.
func keepValid(items []Item, who string, log *slog.Logger) []Item {
	out := items[:0:0]
	for _, it := range items {
		if err := CheckItem(it); err != nil {
			logger(log).Warn("learn: model item dropped", "extractor", who, "reason", err.Error(), "content", cut(it.Content, 80))
			continue
		}
		out = append(out, it)
	}
	return out
}

// decodeItems reads a model's answer {"items": [...]} item by item: an
// item that does not decode (a confidence given as text, say) is dropped
// with a warning; only an answer that is not such an object is an error.
func decodeItems(text, who string, log *slog.Logger) ([]Item, error) {
	var raw struct {
		Items []json.RawMessage `json:"items"`
	}
	if err := json.Unmarshal([]byte(text), &raw); err != nil {
		return nil, &llm.InvalidReplyError{Text: text, Reason: "not an items object", Err: err}
	}
	var items []Item
	for _, r := range raw.Items {
		var it Item
		if err := json.Unmarshal(r, &it); err != nil {
			logger(log).Warn("learn: model item dropped", "extractor", who, "reason", "does not decode: "+err.Error())
			continue
		}
		items = append(items, it)
	}
	return keepValid(items, who, log), nil
}

// recoverItems answers a reply that broke the schema only in some items:
// the valid items of the reply, when err is such an [llm.InvalidReplyError]
// and its text is still an items object; otherwise ok is false.
func recoverItems(err error, who string, log *slog.Logger) (items []Item, ok bool) {
	var inv *llm.InvalidReplyError
	if !errors.As(err, &inv) || inv.Reason != "schema violation" {
		return nil, false
	}
	items, derr := decodeItems(inv.Text, who, log)
	return items, derr == nil
}

func logger(l *slog.Logger) *slog.Logger {
	if l == nil {
		return slog.New(slog.DiscardHandler)
	}
	return l
}
