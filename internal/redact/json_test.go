package redact

import (
	"encoding/json"
	"strings"
	"testing"
)

func TestJSON(t *testing.T) {
	tests := []struct{ name, in, want string }{
		{"no hint kept byte for byte", `{"toolName": "paige_get_buffer",  "n": 1}`, `{"toolName": "paige_get_buffer",  "n": 1}`},
		{"hint without secret kept", `{"b":1,"a":"the token bucket"}`, `{"b":1,"a":"the token bucket"}`},
		{"secret key", `{"path":"a.go","password":"hunter2"}`, `{"password":"[REDACTED:password]","path":"a.go"}`},
		{"secret in a value", `{"cmd":"export API_KEY=\"abcd1234\""}`, `{"cmd":"export API_KEY=\"[REDACTED:api-key]\""}`},
		{"escaped private", `{"m":"a \u003cprivate\u003ex\u003c/private\u003e b"}`, `{"m":"a [REDACTED:private] b"}`},
		{"nested and arrays", `{"a":[{"clientSecret":"s"},"sk-ant-api03-abcdefgh"],"n":1.50}`,
			`{"a":[{"clientSecret":"[REDACTED:secret]"},"[REDACTED:anthropic-key]"],"n":1.50}`},
		{"empty secret kept", `{"password":"","token":"x"}`, `{"password":"","token":"[REDACTED:token]"}`},
		{"non-string secret kept", `{"token":12,"password":true}`, `{"token":12,"password":true}`},
		{"top-level string", `"the password is hunter2"`, `"the password is [REDACTED:password]"`},
		{"invalid json redacted as text", `{"password": "hunter2"`, `{"password": "[REDACTED:password]"`},
		{"null", `null`, `null`},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			got := string(JSON(json.RawMessage(tt.in)))
			if got != tt.want {
				t.Errorf("JSON(%s):\n got %s\nwant %s", tt.in, got, tt.want)
			}
		})
	}
}

func TestJSONNilAndEmpty(t *testing.T) {
	if got := JSON(nil); got != nil {
		t.Errorf("JSON(nil) = %q, want nil", got)
	}
	if got := JSON(json.RawMessage{}); len(got) != 0 {
		t.Errorf("JSON(empty) = %q, want empty", got)
	}
}

func TestJSONStaysValid(t *testing.T) {
	for _, tt := range positives {
		raw, _ := json.Marshal(map[string]any{"text": tt.in, "list": []string{tt.in}})
		out := JSON(raw)
		if !json.Valid(out) {
			t.Fatalf("JSON(%s) = %s is not valid JSON", raw, out)
		}
		var back struct {
			Text string   `json:"text"`
			List []string `json:"list"`
		}
		if err := json.Unmarshal(out, &back); err != nil {
			t.Fatal(err)
		}
		if back.Text != tt.want || back.List[0] != tt.want {
			t.Errorf("JSON of %q gave %q, want %q", tt.in, back.Text, tt.want)
		}
		if !strings.Contains(string(out), MarkerPrefix) {
			t.Errorf("JSON(%s) = %s has no marker", raw, out)
		}
	}
}
