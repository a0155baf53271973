package transcript

import (
	"fmt"
	"io"
	"runtime"
	"strings"
	"testing"

	"github.com/paige-dev/paige/internal/learn"
	"github.com/paige-dev/paige/internal/testenv"
)

// synthetic is an io.Reader producing a realistic transcript of about size
// bytes on the fly (so the input itself takes no memory): user prompts,
// assistant messages split one block per line, tool results from 1 KB to
// 64 KB, progress and file-history-snapshot records.
type synthetic struct {
	size, n int
	i       int
	buf     []byte // unread part of store
	store   []byte // reused record buffer
}

func newSynthetic(size int) *synthetic { return &synthetic{size: size} }

func (s *synthetic) Read(p []byte) (int, error) {
	for len(s.buf) == 0 {
		if s.n >= s.size {
			return 0, io.EOF
		}
		s.buf = s.record(s.store[:0])
		s.store = s.buf
		s.n += len(s.buf)
	}
	k := copy(p, s.buf)
	s.buf = s.buf[k:]
	return k, nil
}

var resultBody = strings.Repeat(`    42→func handle(w http.ResponseWriter, r *http.Request) { json.NewEncoder(w).Encode(\"ok\") }\n`, 700)

// record appends the next record to b. Only the tool result (the bulk of
// the bytes) avoids fmt, so generating costs little next to reading.
func (s *synthetic) record(b []byte) []byte {
	s.i++
	id := fmt.Sprintf("msg_%08d", s.i/6)
	switch s.i % 6 {
	case 0:
		return fmt.Appendf(b, `{"parentUuid":"p","isSidechain":false,"type":"user","message":{"role":"user","content":"Please refactor handler %d; we always run go vet before pushing"},"uuid":"u%d","timestamp":"2026-02-10T21:58:17.856Z"}`+"\n", s.i, s.i)
	case 1:
		return fmt.Appendf(b, `{"parentUuid":"p","isSidechain":false,"type":"assistant","message":{"model":"claude","id":"%s","type":"message","role":"assistant","content":[{"type":"thinking","thinking":"Let me look at the handler first.","signature":"abc"}],"usage":{"input_tokens":3}},"uuid":"a%d"}`+"\n", id, s.i)
	case 2:
		return fmt.Appendf(b, `{"parentUuid":"p","isSidechain":false,"type":"assistant","message":{"model":"claude","id":"%s","type":"message","role":"assistant","content":[{"type":"text","text":"I'll read the file and run the tests."}],"usage":{"input_tokens":3}},"uuid":"a%d"}`+"\n", id, s.i)
	case 3:
		return fmt.Appendf(b, `{"parentUuid":"p","isSidechain":false,"type":"assistant","message":{"model":"claude","id":"%s","type":"message","role":"assistant","content":[{"type":"tool_use","id":"toolu_%d","name":"Read","input":{"file_path":"/src/handler_%d.go"}}]},"uuid":"a%d"}`+"\n", id, s.i, s.i, s.i)
	case 4:
		n := 1 + (s.i*7919)%len(resultBody)
		body := strings.TrimRight(resultBody[:n], `\`)
		b = fmt.Appendf(b, `{"parentUuid":"p","isSidechain":false,"type":"user","message":{"role":"user","content":[{"tool_use_id":"toolu_%d","type":"tool_result","content":"`, s.i-1)
		b = append(b, body...)
		return fmt.Appendf(b, `<system-reminder>be careful</system-reminder>"}]},"toolUseResult":{"stdout":"ok"},"uuid":"r%d"}`+"\n", s.i)
	default:
		return fmt.Appendf(b, `{"parentUuid":"p","isSidechain":false,"type":"progress","data":{"type":"hook_progress","hookEvent":"PostToolUse","command":"echo %d"},"uuid":"g%d"}`+"\n", s.i, s.i)
	}
}

// BenchmarkScan measures reading throughput (MB/s via SetBytes; MB/cpu-s
// per CPU second, run with GOMAXPROCS=1 for one core) and the peak live
// heap while reading inputs of different sizes: the peak must not grow with
// the input. The generator's own cost is included.
func BenchmarkScan(b *testing.B) {
	for _, mb := range []int{16, 128} {
		b.Run(fmt.Sprintf("%dMB", mb), func(b *testing.B) {
			size := mb << 20
			b.SetBytes(int64(size))
			b.ReportAllocs()
			var peak uint64
			cpu0 := testenv.CPUTime()
			for b.Loop() {
				turns := 0
				_, err := Scan(newSynthetic(size), nil, func(learn.Turn) error {
					turns++
					if turns%500 == 0 {
						var ms runtime.MemStats
						runtime.ReadMemStats(&ms)
						peak = max(peak, ms.HeapInuse)
					}
					return nil
				})
				if err != nil {
					b.Fatal(err)
				}
			}
			b.ReportMetric(float64(peak)/(1<<20), "peak-heap-MB")
			// Throughput per CPU second: what one core does, whatever else
			// the machine is running (wall-clock MB/s drops under load).
			if cpu := (testenv.CPUTime() - cpu0).Seconds(); cpu > 0 {
				b.ReportMetric(float64(size)*float64(b.N)/(1<<20)/cpu, "MB/cpu-s")
			}
		})
	}
}
