package claudecode

import (
	"encoding/json"
	"strings"
	"testing"
)

func bashInput(tb testing.TB, cmd string) json.RawMessage {
	tb.Helper()
	b, err := json.Marshal(map[string]string{"command": cmd, "description": "x"})
	if err != nil {
		tb.Fatal(err)
	}
	return b
}

func TestDecideReadOnlyTools(t *testing.T) {
	tests := []struct {
		tool  string
		input string
		deny  bool
	}{
		{"Write", `{"file_path":"/p/a.go","content":"x"}`, true},
		{"Edit", `{"file_path":"/p/a.go","old_string":"a","new_string":"b"}`, true},
		{"MultiEdit", `{"file_path":"/p/a.go","edits":[]}`, true},
		{"NotebookEdit", `{"notebook_path":"/p/a.ipynb"}`, true},
		{"Read", `{"file_path":"/p/a.go"}`, false},
		{"Grep", `{"pattern":">"}`, false},
		{"Glob", `{"pattern":"**/*.go"}`, false},
		{"WebFetch", `{"url":"https://x"}`, false},
		{"mcp__paige__paige_open_file", `{"path":"a.go"}`, false},
		{"Task", `{"prompt":"rm -rf /"}`, false},
		{"write", `{}`, false}, // tool names are case-sensitive in Claude Code
		{"Bash", `not json`, false},
		{"Bash", `{"command":""}`, false},
		{"Bash", `{"command":42}`, false},
		{"Bash", `null`, false},
		{"", ``, false},
	}
	for _, tt := range tests {
		t.Run(tt.tool+" "+tt.input, func(t *testing.T) {
			got := DecideReadOnly(tt.tool, json.RawMessage(tt.input))
			if got.Deny != tt.deny {
				t.Fatalf("deny: got %v, want %v (reason %q)", got.Deny, tt.deny, got.Reason)
			}
			if got.Deny && !strings.Contains(got.Reason, tt.tool) {
				t.Errorf("reason %q does not name the tool %s", got.Reason, tt.tool)
			}
			if !got.Deny && got.Reason != "" {
				t.Errorf("allowed with a reason %q", got.Reason)
			}
		})
	}
}

// bashTable lists commands Claude Code sends to Bash and whether they write.
var bashTable = []struct {
	cmd  string
	deny bool
}{
	// reads
	{"ls -la", false},
	{"cat main.go", false},
	{"go test ./... 2>&1", false},
	{"go build ./... > /dev/null", false},
	{"go vet ./... >/dev/null 2>&1", false},
	{"make test &> /dev/null", false},
	{"grep '>' file.txt", false},
	{`grep ">" file.txt`, false},
	{`grep \> file.txt`, false},
	{`echo "a > b"`, false},
	{`echo 'x >> y' | wc -c`, false},
	{"git status", false},
	{"git diff HEAD~1 -- a.go", false},
	{"git log --oneline | head -5", false},
	{"git -C sub --no-pager show HEAD", false},
	{"git stash list", false},
	{"git branch -a", false},
	{"find . -name '*.go' -print", false},
	{"find . -name '*.go' -exec grep -l foo {} \\;", false},
	{"sed -n '1,20p' a.go", false},
	{"sed 's/a/b/' a.go", false},
	{"perl -ne 'print if /x/' a", false},
	{"tee", false},
	{"echo hi | tee /dev/null", false},
	{"FOO=bar go test ./...", false},
	{"env GOOS=linux go build -o /dev/null .", false},
	{"cd src && ls", false},
	{"(cd src; ls)", false},
	{"echo $(git rev-parse HEAD)", false},
	{"diff <(sort a) <(sort b)", false},
	{"cat <<EOF\nrm -rf /\nmv a b\nEOF", false},
	{"cat <<-'END'\n\trm x\n\tEND\nls", false},
	{"cat <<< 'rm x'", false},
	{"wc -l < input.txt", false},
	{"echo $((1 > 0))", false},
	{"ls # > comment.txt", false},
	{"command -v rm", false},
	{"which mv cp", false},
	{"for f in *.go; do wc -l $f; done", false},
	{"if [ -f a ]; then cat a; else echo none; fi", false},
	{"sort a | uniq -c | sort -rn | head", false},
	{"echo x >&2", false},
	{"echo x 1>&2", false},
	{"ls 2>/dev/null || true", false},
	{"bash -c 'ls -la'", false},
	{"dd if=a.img bs=1 count=10", false},
	{"echo 'unterminated", false},
	{"curl -s https://example.com | jq .", false},
	{"npm test", false},
	{`[[ "$a" > "$b" ]] && echo later`, false},
	{"(( n > 3 )) && echo big", false},
	{"x=$(( 2 > 1 ))", false},
	{`[[ -f a ]] && echo x > out`, true},
	{"(( n > 3 )) && rm big", true},
	// writes
	{"echo hi > out.txt", true},
	{"echo hi >> out.txt", true},
	{"echo hi>out.txt", true},
	{"go test ./... > log.txt 2>&1", true},
	{"make &> build.log", true},
	{"cat a >| b", true},
	{"ls >& listing.txt", true},
	{`echo x > "my file.txt"`, true},
	{"echo x | tee out.txt", true},
	{"echo x | tee -a out.txt", true},
	{"sed -i 's/a/b/' a.go", true},
	{"sed -i.bak 's/a/b/' a.go", true},
	{"sed -Ei 's/a/b/' a.go", true},
	{"sed --in-place 's/a/b/' a.go", true},
	{"perl -pi -e 's/a/b/' a.go", true},
	{"mv a.go b.go", true},
	{"cp a.go b.go", true},
	{"rm -rf build", true},
	{"/bin/rm x", true},
	{"mkdir -p out", true},
	{"touch new.go", true},
	{"chmod +x run.sh", true},
	{"ln -s a b", true},
	{"git add .", true},
	{"git commit -m 'wip'", true},
	{"git push origin main", true},
	{"git -C sub commit -am x", true},
	{"git checkout -- a.go", true},
	{"git stash", true},
	{"go test ./... && git commit -am done", true},
	{"ls; rm a", true},
	{"ls || rm a", true},
	{"ls | xargs rm", true},
	{"find . -name '*.tmp' | xargs -n 1 rm -f", true},
	{"find . -name '*.tmp' -delete", true},
	{"find . -name '*.tmp' -exec rm {} \\;", true},
	{"(cd src && rm a.go)", true},
	{"{ ls; rm a; }", true},
	{"echo $(rm a)", true},
	{"echo `touch x`", true},
	{`echo "$(rm a)"`, true},
	{"bash -c 'rm -rf build'", true},
	{"sh -c \"echo x > y\"", true},
	{"eval 'rm a'", true},
	{"sudo rm -rf /tmp/x", true},
	{"FOO=1 rm a", true},
	{"env -i PATH=/bin rm a", true},
	{"timeout 10 rm a", true},
	{"nohup mv a b &", true},
	{"time cp a b", true},
	{"if true; then rm a; fi", true},
	{"for f in *.go; do rm $f; done", true},
	{"while read l; do echo $l >> out; done < in", true},
	{"cat <<EOF > notes.md\nhello\nEOF", true},
	{"dd if=/dev/zero of=disk.img bs=1M count=1", true},
	{"truncate -s 0 log", true},
	{"ls &&\\\nrm a", true},
	{"ls\nrm a", true},
	{"echo x > $OUT", true},
	{"diff a b > >(tee out)", true},
}

func TestDecideReadOnlyBash(t *testing.T) {
	for _, tt := range bashTable {
		t.Run(tt.cmd, func(t *testing.T) {
			got := DecideReadOnly("Bash", bashInput(t, tt.cmd))
			if got.Deny != tt.deny {
				t.Fatalf("deny: got %v, want %v (reason %q)", got.Deny, tt.deny, got.Reason)
			}
			if got.Deny && !strings.HasPrefix(got.Reason, reasonPrefix) {
				t.Errorf("reason %q lacks the coaching prefix", got.Reason)
			}
		})
	}
}

func TestShellWritesDepthLimit(t *testing.T) {
	cmd := "ls"
	for i := 0; i < maxDepth+2; i++ {
		cmd = "echo $(" + cmd + ")"
	}
	if got := shellWrites(cmd, 0); got != "nested too deeply to check" {
		t.Errorf("got %q, want the depth-limit reason", got)
	}
}

func FuzzDecideReadOnly(f *testing.F) {
	for _, tt := range bashTable {
		f.Add("Bash", tt.cmd)
	}
	f.Add("Write", "")
	f.Add("Bash", "$(((((")
	f.Add("Bash", "<<")
	f.Add("Bash", "`\\")
	f.Add("Bash", "echo ${")
	f.Fuzz(func(t *testing.T, tool, cmd string) {
		d := DecideReadOnly(tool, bashInput(t, cmd))
		if d.Deny == (d.Reason == "") {
			t.Fatalf("deny %v with reason %q", d.Deny, d.Reason)
		}
		_ = DecideReadOnly(tool, json.RawMessage(cmd))
	})
}

// BenchmarkDecideReadOnly decides a typical compound command.
func BenchmarkDecideReadOnly(b *testing.B) {
	in := bashInput(b, `cd src && go test ./... 2>&1 | tee /dev/null | grep -v '^ok' > /dev/null; echo "done: $(date)"`)
	for i := 0; i < b.N; i++ {
		if DecideReadOnly("Bash", in).Deny {
			b.Fatal("denied a read-only command")
		}
	}
}
