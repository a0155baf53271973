package session

import (
	"context"
	"fmt"
	"sync"
	"testing"

	"github.com/paige-dev/paige/internal/coach"
)

// BenchmarkLog measures Log, which returns once the action is committed,
// from 1 and from 16 concurrent callers (group commit batches the latter).
func BenchmarkLog(b *testing.B) {
	for _, callers := range []int{1, 16} {
		b.Run(fmt.Sprintf("callers=%d", callers), func(b *testing.B) {
			f := newFixture(b, true)
			ctx := context.Background()
			if _, err := f.svc.Start(ctx, StartInput{}); err != nil {
				b.Fatal(err)
			}
			data := map[string]any{"toolName": "paige_get_buffer", "sessionId": "s", "mcpSessionId": "m"}
			b.ReportAllocs()
			b.ResetTimer()
			var wg sync.WaitGroup
			per := b.N / callers
			for range callers {
				wg.Go(func() {
					for range per {
						if err := f.svc.Log(ctx, coach.ActionMCPToolCall, data); err != nil {
							b.Error(err)
							return
						}
					}
				})
			}
			wg.Wait()
		})
	}
}
