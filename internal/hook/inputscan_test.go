package hook

import (
	"encoding/json"
	"fmt"
	"reflect"
	"strings"
	"testing"
)

// unmarshalInput is the code scanInput stands in for.
func unmarshalInput(data []byte) (Input, error) {
	var in Input
	err := json.Unmarshal(data, &in)
	return in, err
}

// checkDecodeInput fails when decodeInput's answer for data differs from
// encoding/json's, or when scanInput accepts what encoding/json does not
// decode to the same value.
func checkDecodeInput(t *testing.T, data []byte) (scanned bool) {
	t.Helper()
	want, wantErr := unmarshalInput(data)
	if in, ok := scanInput(data); ok {
		if wantErr != nil || !reflect.DeepEqual(in, want) {
			t.Fatalf("scanInput(%q) = %+v; encoding/json: %+v, %v", data, in, want, wantErr)
		}
		scanned = true
	}
	got, err := decodeInput(data)
	if fmt.Sprint(err) != fmt.Sprint(wantErr) || !reflect.DeepEqual(got, want) {
		t.Fatalf("decodeInput(%q) = %+v, %v; encoding/json: %+v, %v", data, got, err, want, wantErr)
	}
	return scanned
}

// inputCases are hook inputs and near misses; scanned says whether
// scanInput decodes them itself (the rest go to encoding/json).
var inputCases = []struct {
	data    string
	scanned bool
}{
	{hookInputJSON, true},
	{`{}`, true},
	{" \t\r\n{ } \n", true},
	{`{"session_id":"a","session_id":"b"}`, true},
	{`{"cwd":"C:\\dir\u00e9\ud83d\ude00 \"q\" \/"}`, true},
	{"{\"cwd\":\"bad \xff utf8\"}", true},
	{`{"cwd":"lone \ud800 surrogate"}`, true},
	{`{"tool_name":"Write","tool_input":{"file_path":"/x","content":"a\nb","n":[1,2.5e3,true,false,null]}}`, true},
	{`{"tool_input": [ 1 , 2 ] , "x":1}`, true},
	{`{"tool_input":"s"}`, true},
	{`{"tool_input":-0.5}`, true},
	{`{"tool_input":{},"tool_input":[]}`, true},
	{`{"future":{"deep":[{"a":null}]},"also":null,"n":1e5}`, true},
	{`{"tool_input":null}`, false},
	{`{"session_id":null}`, false},
	{`{"session_id":1}`, false},
	{`{"session_id":["a"]}`, false},
	{`{"Session_ID":"case"}`, false},
	{`{"SOURCE":"x","source":"y"}`, false},
	{"{\"\u017fource\":\"long s\"}", false},
	{"{\"hoo\u212a_event_name\":\"kelvin\"}", false},
	{`{"session\u005fid":"escaped key"}`, false},
	{`{"session_id":"a"} x`, false},
	{`{"session_id":"a"}{}`, false},
	{`{"session_id":"a",}`, false},
	{`{"session_id" "a"}`, false},
	{`{"session_id":"a"`, false},
	{`{"session_id":"unterminated}`, false},
	{"{\"cwd\":\"ctl \x01\"}", false},
	{`{"n":01}`, false},
	{`{"tool_input":` + strings.Repeat("[", 100) + strings.Repeat("]", 100) + `}`, false},
	{`[]`, false},
	{`null`, false},
	{`"s"`, false},
	{``, false},
	{`{`, false},
}

// hookInputJSON is what Claude Code writes to a SessionStart hook.
const hookInputJSON = `{"session_id":"sess-42","transcript_path":"/tmp/t.jsonl","cwd":"/work/x","hook_event_name":"SessionStart","source":"startup","permission_mode":"default"}`

func TestDecodeInputMatchesEncodingJSON(t *testing.T) {
	for _, tt := range inputCases {
		if scanned := checkDecodeInput(t, []byte(tt.data)); scanned != tt.scanned {
			t.Errorf("%q: scanned %v, want %v", tt.data, scanned, tt.scanned)
		}
	}
}

// FuzzDecodeInput: whatever scanInput decodes, encoding/json decodes to
// the same Input without error, and decodeInput always answers exactly as
// encoding/json (value and error).
func FuzzDecodeInput(f *testing.F) {
	for _, tt := range inputCases {
		f.Add([]byte(tt.data))
	}
	f.Fuzz(func(t *testing.T, data []byte) {
		checkDecodeInput(t, data)
	})
}
