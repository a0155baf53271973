package wsapi

import (
	"testing"

	"github.com/google/go-cmp/cmp"
)

// frameDecodeSeeds are frames of every shape the two paths must agree on.
var frameDecodeSeeds = []string{
	`{"type":"buffer:update","payload":{"path":"a.ts","content":"x\n\"y\"","cursorPosition":{"line":1,"column":2}},"id":"7","timestamp":12}`,
	`{"type":"buffer:update","payload":{"path":"a.ts"},"id":7}`,
	`{"type":"buffer:update","data":{"path":"a.ts"}}`,
	`{"type":"buffer:update","payload":null,"data":{"path":"b.ts"}}`,
	`{"type":"buffer:update","payload":{"path":"a.ts"},"type":"file:open"}`,
	`{"type":"buffer:update","payload":{"path":3}}`,
	`{"type":"buffer:update","payload":{"path":"a.ts"}} trailing`,
	`{"type":"buffer:update"}`,
	` {"type":"buffer:update","payload":{"path":"a.ts"},"timestamp":"soon"}`,
}

// FuzzFrameDecodeMatchesGeneral: whatever the frame, the one-decode path
// (peekType + decodeFrame) gives the envelope, payload and error class the
// general path (DecodeEnvelope + DecodePayload) gives, for the type it
// routes on.
func FuzzFrameDecodeMatchesGeneral(f *testing.F) {
	for _, s := range frameDecodeSeeds {
		f.Add([]byte(s))
	}
	f.Fuzz(func(t *testing.T, frame []byte) {
		typ, ok := peekType(frame)
		if !ok {
			return
		}
		req := &Request{Envelope: Envelope{Type: typ}, frame: frame}
		got, gotErr := decodeFrame[BufferUpdate](req)
		env, err := DecodeEnvelope(frame)
		if err != nil {
			if gotErr == nil {
				t.Fatalf("general path refuses %q (%v), frame path accepts it", frame, err)
			}
			return
		}
		if env.Type != typ {
			if gotErr == nil {
				t.Fatalf("%q names two types, frame path accepts it", frame)
			}
			return
		}
		want, wantErr := DecodePayload[BufferUpdate](env)
		if (gotErr == nil) != (wantErr == nil) {
			t.Fatalf("%q: frame path error %v, general path %v", frame, gotErr, wantErr)
		}
		if wantErr != nil {
			return
		}
		if diff := cmp.Diff(want, got); diff != "" {
			t.Errorf("%q payload (-general +frame):\n%s", frame, diff)
		}
		if req.ID != env.ID || req.Timestamp != env.Timestamp {
			t.Errorf("%q: frame path id %q ts %d, general %q %d", frame, req.ID, req.Timestamp, env.ID, env.Timestamp)
		}
	})
}

// TestPeekType: only a frame whose first key is a non-empty string "type"
// is routed before it is decoded.
func TestPeekType(t *testing.T) {
	for _, tc := range []struct {
		frame string
		want  string
		ok    bool
	}{
		{`{"type":"buffer:update","payload":{}}`, "buffer:update", true},
		{` { "type" : "file:open" }`, "file:open", true},
		{`{"payload":{},"type":"buffer:update"}`, "", false},
		{`{"type":""}`, "", false},
		{`{"type":3}`, "", false},
		{`[]`, "", false},
		{``, "", false},
	} {
		got, ok := peekType([]byte(tc.frame))
		if got != tc.want || ok != tc.ok {
			t.Errorf("peekType(%q) = %q, %v; want %q, %v", tc.frame, got, ok, tc.want, tc.ok)
		}
	}
}
