package extract

import (
	"context"
	"log/slog"
	"time"

	"github.com/google/jsonschema-go/jsonschema"

	"github.com/paige-dev/paige/internal/learn"
	"github.com/paige-dev/paige/internal/llm"
)

// CustomizeSchema restricts item types to the six knowledge types and
// confidence to [0, 1] in the structured-output schema: the request states
// them as schema constraints (enum, minimum, maximum), not only in the
// descriptions. A reply that breaks them in some items loses those items
// only (see [Claude.Extract]).
func (Extraction) CustomizeSchema(s *jsonschema.Schema) error {
	return llm.Constrain(s,
		llm.Enum("items[].type", "preference", "fact", "rule", "procedure", "correction", "decision"),
		llm.Range("items[].confidence", 0, 1))
}

// Claude extracts with Claude through [llm.Call] (structured
// output: the reply must match the [Extraction] schema). Calls are recorded
// with call type "learn_extract".
type Claude struct {
	Client *llm.Client // required
	Tier   llm.Tier    // empty means llm.Haiku
	Model  string      // explicit model id; overrides Tier
	Now    func() time.Time
	Log    *slog.Logger // warnings about dropped items; nil means discard
}

var _ Extractor = (*Claude)(nil)

// Name returns "claude:<model id>".
func (c *Claude) Name() string { return "claude:" + c.model() }

func (c *Claude) model() string {
	if c.Model != "" {
		return c.Model
	}
	t := c.Tier
	if t == "" {
		t = llm.Haiku
	}
	return c.Client.Model(t)
}

// Extract implements [Extractor]. Without an API key it returns
// [llm.ErrNoModel].
func (c *Claude) Extract(ctx context.Context, turns []learn.Turn, source string) ([]learn.Entry, error) {
	x, _, err := llm.Call[Extraction](ctx, c.Client, llm.Request{
		CallType: "learn_extract",
		Model:    c.model(),
		System:   Prompt,
		User:     "TRANSCRIPT:\n" + FormatTranscript(turns),
	})
	items := x.Items
	if err != nil {
		// One item out of range or of an unknown type breaks the schema;
		// it is dropped with a warning, the others are kept.
		var ok bool
		if items, ok = recoverItems(err, c.Name(), c.Log); !ok {
			return nil, err
		}
	}
	now := time.Now
	if c.Now != nil {
		now = c.Now
	}
	return Entries(keepValid(items, c.Name(), c.Log), source, now()), nil
}
