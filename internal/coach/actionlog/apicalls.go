package actionlog

import (
	"context"

	"github.com/paige-dev/paige/internal/coach"
	"github.com/paige-dev/paige/internal/llm"
)

var _ llm.CallLogger = (*Logger)(nil)

// LogAPICall records one Claude call in api_call_log, making the Logger an
// llm.CallLogger (pass it as llm.Options.Log). The record's values are kept
// as the llm package produced them: a failed call arrives with LatencyMs -1
// and zero tokens and cost (EC-19); a model without a known price arrives
// with CostUnknown and is stored with a NULL cost. A record without a session, or with one
// that does not exist, is kept with a NULL session.
func (l *Logger) LogAPICall(ctx context.Context, rec llm.CallRecord) error {
	return l.RecordAPICall(ctx, coach.APICall{
		SessionID:    rec.SessionID,
		CallType:     rec.CallType,
		Model:        rec.Model,
		InputHash:    rec.InputHash,
		LatencyMs:    rec.LatencyMs,
		InputTokens:  rec.InputTokens,
		OutputTokens: rec.OutputTokens,
		CostEstimate: rec.CostUSD,
		CostUnknown:  rec.CostUnknown,
		CreatedAt:    rec.At,
	})
}
