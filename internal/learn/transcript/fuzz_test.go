package transcript

import (
	"bufio"
	"encoding/json"
	"os"
	"strings"
	"testing"
	"unicode/utf8"

	"github.com/paige-dev/paige/internal/learn"
)

// FuzzScan feeds arbitrary bytes to the reader: it must never panic, never
// count more lines than the input has, and never let a system reminder or a
// slash-command tag reach a user turn.
func FuzzScan(f *testing.F) {
	for _, name := range []string{sample, "testdata/cc-2.1.38-short.jsonl", "testdata/cc-2.1.38-tool_heavy.jsonl"} {
		file, err := os.Open(name)
		if err != nil {
			f.Fatal(err)
		}
		sc := bufio.NewScanner(file)
		sc.Buffer(nil, 1<<20)
		for sc.Scan() {
			f.Add(sc.Text())
		}
		file.Close()
	}
	f.Add(`{"type":"user","message":{"role":"user","content":"<system-reminder>x</system-reminder>keep"}}`)
	f.Add(`{"type":"assistant","message":{"id":"a","content":[{"type":"tool_use"},{"type":"text","text":1}]}}`)
	f.Add(`{"type":"assistant","message":{"id":"b","content":[{"type":"tool_use","id":"t","name":"Bash","input":{"command":"npm i"}}]}}` + "\n" +
		`{"type":"user","message":{"content":[{"type":"tool_result","tool_use_id":"t","is_error":true,"content":"The user doesn't want to proceed with this tool use. To tell you how to proceed, the user said:\nuse pnpm"}]}}` + "\n" +
		`{"type":"user","message":{"content":[{"type":"text","text":"[Request interrupted by user for tool use]"}]}}` + "\n" +
		`{"type":"user","message":{"content":"no, the other one"}}`)
	f.Fuzz(func(t *testing.T, in string) {
		var turns []learn.Turn
		st, err := Scan(strings.NewReader(in), &Options{IncludeSidechain: len(in)%2 == 0}, func(tr learn.Turn) error {
			turns = append(turns, tr)
			return nil
		})
		if err != nil {
			t.Fatalf("Scan: %v", err)
		}
		if max := strings.Count(in, "\n") + 1; st.Lines > max {
			t.Errorf("counted %d lines in %d", st.Lines, max)
		}
		for _, tr := range turns {
			if tr.Role == learn.User && (strings.Contains(tr.Content, "<system-reminder>") || strings.Contains(tr.Content, "<command-name>")) {
				t.Errorf("wrapper leaked: %q", tr.Content)
			}
			for _, r := range tr.ToolResults {
				if utf8.RuneCountInString(r.Content) > DefaultMaxResultChars {
					t.Errorf("result too long: %d", len(r.Content))
				}
			}
		}
	})
}

// FuzzClean checks that no dropped wrapper survives cleaning.
func FuzzClean(f *testing.F) {
	f.Add("a<system-reminder>b</system-reminder>c")
	f.Add("<system-re<system-reminder>x</system-reminder>minder>y")
	f.Add("<command-args><command-name>x</command-name></command-args>")
	f.Fuzz(func(t *testing.T, in string) {
		out := Clean(in)
		for _, tag := range dropTags {
			if strings.Contains(out, "<"+tag+">") {
				t.Errorf("Clean(%q) = %q keeps <%s>", in, out, tag)
			}
		}
	})
}

// FuzzResultPrefix checks that a tool result read from its short prefix
// is, cleaned and cut, what the whole budget gives.
func FuzzResultPrefix(f *testing.F) {
	for _, s := range []string{strings.Repeat("ok line\\n", 200), strings.Repeat("x", 190) + "<system-reminder>" + strings.Repeat("y", 900) + "</system-reminder>z",
		strings.Repeat("é\\u00e9", 300), strings.Repeat("a", 1000) + "\\n\\n\\n\\n" + strings.Repeat("b", 500)} {
		f.Add(s)
	}
	f.Fuzz(func(t *testing.T, body string) {
		raw, err := json.Marshal(body)
		if err != nil {
			return
		}
		sc := newScanner(nil, nil)
		budget := sc.maxResult*8 + 512
		got := truncate(Clean(sc.resultPrefix(string(raw), budget)), sc.maxResult)
		want := truncate(Clean(prefixString(string(raw), budget)), sc.maxResult)
		if got != want {
			t.Fatalf("short prefix gives %q, the budget %q", got, want)
		}
	})
}
