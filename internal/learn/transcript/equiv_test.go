package transcript

import (
	"bufio"
	"fmt"
	"io"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/google/go-cmp/cmp"

	"github.com/paige-dev/paige/internal/learn"
)

// readLines reads in line by line as Scan does, with a tape of at most
// limit nodes (0: maxNodes), overwriting each line's bytes once it is read
// (as the next read overwrites Scan's buffer): a kept string that still
// pointed into the line would show.
func readLines(in string, opts *Options, limit int) ([]learn.Turn, Stats, error) {
	var turns []learn.Turn
	s := newScanner(opts, func(t learn.Turn) error {
		turns = append(turns, t)
		return nil
	})
	s.t.limit = limit
	for _, line := range strings.SplitAfter(in, "\n") {
		b := []byte(line)
		if err := s.line(b); err != nil {
			return turns, s.stats, err
		}
		for i := range b {
			b[i] = '#'
		}
	}
	return turns, s.stats, s.flushAll()
}

// checkSameAsOld compares the reader with the oracle (the reader before the
// tape) on in, with and without sidechains, through Read and through
// readLines with a full and an almost empty tape.
func checkSameAsOld(t *testing.T, name, in string, limits ...int) {
	t.Helper()
	for _, side := range []bool{false, true} {
		opts := &Options{IncludeSidechain: side}
		want, wantSt, wantErr := oldRead(in, opts)
		got, st, err := Read(strings.NewReader(in), opts)
		if diff := cmp.Diff(want, got); diff != "" || st != wantSt || (err == nil) != (wantErr == nil) {
			t.Fatalf("%s (sidechain %v): Read differs from the old reader: stats %+v, old %+v, err %v, old %v; turns (-old +new):\n%s",
				name, side, st, wantSt, err, wantErr, diff)
		}
		for _, limit := range limits {
			got, st, err := readLines(in, opts, limit)
			if diff := cmp.Diff(want, got); diff != "" || st != wantSt || (err == nil) != (wantErr == nil) {
				t.Fatalf("%s (sidechain %v, %d nodes): differs from the old reader: stats %+v, old %+v; turns (-old +new):\n%s",
					name, side, limit, st, wantSt, diff)
			}
		}
	}
}

// TestReadMatchesOld compares the reader with the oracle on every fixture,
// a synthetic transcript and lines with more values than the tape holds.
func TestReadMatchesOld(t *testing.T) {
	files, err := filepath.Glob("testdata/*.jsonl")
	if err != nil || len(files) == 0 {
		t.Fatalf("fixtures: %v", err)
	}
	for _, f := range files {
		b, err := os.ReadFile(f)
		if err != nil {
			t.Fatal(err)
		}
		checkSameAsOld(t, f, string(b), 1, 7, 40)
	}
	synth, err := io.ReadAll(newSynthetic(4 << 20))
	if err != nil {
		t.Fatal(err)
	}
	checkSameAsOld(t, "synthetic", string(synth), 3)
	wide := `{"type":"assistant","toolUseResult":[` + strings.Repeat(`0,"x",{"type":"text"},`, maxNodes/3) +
		`1],"message":{"id":"w","role":"assistant","content":[{"type":"text","text":"after the tape is full"},` +
		strings.Repeat(`{"type":"tool_use","id":"t","name":"N","input":{"a":[1,2]}},`, 10) + `{"type":"text","text":"last"}]}}` + "\n" +
		`{"type":"user","message":{"role":"user","content":[` + strings.Repeat(`{"type":"tool_result","tool_use_id":"t","content":[{"type":"text","text":"r"}]},`, maxNodes/8) +
		`{"type":"text","text":"done"}]}}` + "\n"
	checkSameAsOld(t, "wide lines", wide)
	var many strings.Builder // more blocks than sigSet lists, repeated on later lines of the message
	for line := range 3 {
		many.WriteString(`{"type":"assistant","message":{"id":"many","role":"assistant","content":[`)
		for b := range 3 * manySigs {
			fmt.Fprintf(&many, `{"type":"text","text":"block %d"},{"type":"tool_use","id":"t%d","name":"N","input":{}},`, (b*7+line)%(2*manySigs), b%5)
		}
		many.WriteString(`{"type":"text","text":"end"}]}}` + "\n")
	}
	checkSameAsOld(t, "many blocks", many.String(), 1, 9)
}

// FuzzReadMatchesOld compares the reader with the oracle on any input,
// with tapes of a few nodes (most lines then are walked partly by
// scanning) and of maxNodes.
func FuzzReadMatchesOld(f *testing.F) {
	for _, name := range []string{sample, "testdata/cc-2.1.38-short.jsonl", "testdata/cc-2.1.38-tool_heavy.jsonl", "testdata/cc-2.1.38-subagent.jsonl"} {
		file, err := os.Open(name)
		if err != nil {
			f.Fatal(err)
		}
		sc := bufio.NewScanner(file)
		sc.Buffer(nil, 1<<20)
		for sc.Scan() {
			f.Add(sc.Text(), uint8(0))
		}
		file.Close()
	}
	f.Add(`{"type":"assistant","message":{"id":"b","content":[{"type":"tool_use","id":"t","name":"Bash","input":{"command":"npm i"}},{"type":"text","text":"x"}]}}`+"\n"+
		`{"type":"assistant","message":{"id":"b","content":[{"type":"tool_use","id":"t","name":"Bash","input":{"command":"npm i"}}]}}`+"\n"+
		`{"type":"user","message":{"content":[{"type":"tool_result","tool_use_id":"t","is_error":true,"content":"The user doesn't want to proceed with this tool use. To tell you how to proceed, the user said:\nuse pnpm"}]}}`+"\n"+
		`{"type":"user","message":{"content":[{"type":"text","text":"[Request interrupted by user for tool use]"}]}}`+"\n"+
		`{"type":"user","message":{"content":"no, the other one"}}`, uint8(3))
	f.Add(`{"type":"assistant","t\u0079pe":"user","message":{"role":"user","c\u006fntent":"a","content":{"x":{"type":"text","text":2}}}}`, uint8(2))
	f.Add(`{"type":"progress","parentToolUseID":"p","data":{"type":"agent_progress","message":{"type":"assistant","message":{"id":"z","content":[{"type":"text","text":"sub"}]}}}}`, uint8(4))
	f.Fuzz(func(t *testing.T, in string, limit uint8) {
		checkSameAsOld(t, "fuzz", in, int(limit%16)+1, 0)
	})
}

// FuzzSigSet checks sigSet against a map: the same answers to has after
// any sequence of adds and resets.
func FuzzSigSet(f *testing.F) {
	f.Add([]byte("abcabcdefghijklmnopabc\x00a"))
	f.Fuzz(func(t *testing.T, ops []byte) {
		var s sigSet
		want := map[string]bool{}
		for _, op := range ops {
			sig := []byte{op % 32}
			switch {
			case op == 0:
				s.reset()
				clear(want)
			case s.has(sig) != want[string(sig)]:
				t.Fatalf("has(%q) = %v after %q", sig, !want[string(sig)], ops)
			case !want[string(sig)]:
				s.add(string(sig))
				want[string(sig)] = true
			}
		}
	})
}
