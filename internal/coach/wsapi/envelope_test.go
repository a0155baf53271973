package wsapi

import (
	"encoding/json"
	"errors"
	"testing"
	"time"

	"github.com/google/go-cmp/cmp"
)

func TestDecodeEnvelope(t *testing.T) {
	tests := []struct {
		name    string
		frame   string
		want    Envelope
		wantErr error
	}{
		{"payload", `{"type":"file:open","payload":{"path":"a.go"},"id":"7","timestamp":1700000000000}`,
			Envelope{Type: "file:open", Payload: json.RawMessage(`{"path":"a.go"}`), ID: "7", Timestamp: 1700000000000}, nil},
		{"data instead of payload", `{"type":"file:open","data":{"path":"b.go"}}`,
			Envelope{Type: "file:open", Payload: json.RawMessage(`{"path":"b.go"}`)}, nil},
		{"payload wins over data", `{"type":"x","payload":{"a":1},"data":{"b":2}}`,
			Envelope{Type: "x", Payload: json.RawMessage(`{"a":1}`)}, nil},
		{"null payload uses data", `{"type":"x","payload":null,"data":{"b":2}}`,
			Envelope{Type: "x", Payload: json.RawMessage(`{"b":2}`)}, nil},
		{"no payload", `{"type":"session:end"}`, Envelope{Type: "session:end", Payload: json.RawMessage(`{}`)}, nil},
		{"numeric id", `{"type":"x","id":42}`, Envelope{Type: "x", Payload: json.RawMessage(`{}`), ID: "42"}, nil},
		{"odd timestamp ignored", `{"type":"x","timestamp":"soon"}`, Envelope{Type: "x", Payload: json.RawMessage(`{}`)}, nil},
		{"not json", `{"type":`, Envelope{}, ErrMalformedJSON},
		{"array", `[1,2]`, Envelope{}, ErrMalformedJSON},
		{"empty", ``, Envelope{}, ErrMalformedJSON},
		{"no type", `{"payload":{}}`, Envelope{}, ErrMissingType},
		{"empty type", `{"type":""}`, Envelope{}, ErrMissingType},
		{"type not string", `{"type":3}`, Envelope{}, ErrMalformedJSON},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			got, err := DecodeEnvelope([]byte(tt.frame))
			if !errors.Is(err, tt.wantErr) {
				t.Fatalf("err = %v, want %v", err, tt.wantErr)
			}
			if diff := cmp.Diff(tt.want, got); diff != "" {
				t.Errorf("(-want +got):\n%s", diff)
			}
		})
	}
}

func TestDecodePayloadValidates(t *testing.T) {
	tests := []struct {
		name    string
		payload string
		wantErr bool
	}{
		{"ok", `{"path":"a.go","content":""}`, false},
		{"missing content", `{"path":"a.go"}`, true},
		{"missing path", `{"content":"x"}`, true},
		{"wrong type", `{"path":5,"content":"x"}`, true},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			_, err := DecodePayload[FileSave](Envelope{Type: TypeFileSave, Payload: json.RawMessage(tt.payload)})
			if (err != nil) != tt.wantErr {
				t.Fatalf("err = %v, want error %v", err, tt.wantErr)
			}
		})
	}
}

func TestFlexAcceptsStringsAndNumbers(t *testing.T) {
	var h HintsLevelChange
	if err := json.Unmarshal([]byte(`{"level":2,"previousLevel":"file"}`), &h); err != nil {
		t.Fatal(err)
	}
	if h.Level != "2" || h.PreviousLevel != "file" {
		t.Errorf("got %q/%q, want 2/file", h.Level, h.PreviousLevel)
	}
	if err := json.Unmarshal([]byte(`{"level":{}}`), &h); err == nil {
		t.Error("object level accepted")
	}
}

func TestNewEnvelopeRoundTrip(t *testing.T) {
	now := time.UnixMilli(1700000000123)
	env, err := NewEnvelope(TypeFSSaveAck, FSSaveAck{Path: "a", Success: true, Timestamp: 1}, now)
	if err != nil {
		t.Fatal(err)
	}
	b, _ := json.Marshal(env)
	back, err := DecodeEnvelope(b)
	if err != nil {
		t.Fatal(err)
	}
	if diff := cmp.Diff(env, back); diff != "" {
		t.Errorf("(-want +got):\n%s", diff)
	}
}

// FuzzDecodeEnvelope checks that no frame panics the decoder or the payload
// decoding of any catalogued type, and that accepted envelopes re-encode.
func FuzzDecodeEnvelope(f *testing.F) {
	for _, seed := range []string{
		`{"type":"file:open","payload":{"path":"a.go"}}`,
		`{"type":"buffer:update","data":{"path":"a","content":"x","cursorPosition":{"line":1,"column":2}}}`,
		`{"type":"hints:level_change","payload":{"level":3}}`,
		`{"type":"x","id":1e309}`, `{"type":"\u0000"}`, `[]`, `null`, `{"type":null}`, `{`,
	} {
		f.Add([]byte(seed))
	}
	f.Fuzz(func(t *testing.T, frame []byte) {
		env, err := DecodeEnvelope(frame)
		if err != nil {
			return
		}
		if env.Type == "" {
			t.Fatal("accepted an envelope without type")
		}
		if _, err := json.Marshal(env); err != nil {
			t.Fatalf("accepted envelope does not re-encode: %v", err)
		}
		for _, m := range Catalog {
			v := m.Payload()
			_ = json.Unmarshal(env.Payload, v)
			if val, ok := v.(interface{ Valid() error }); ok {
				_ = val.Valid()
			}
		}
	})
}
