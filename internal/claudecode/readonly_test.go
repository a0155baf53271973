package claudecode

import (
	"encoding/json"
	"strings"
	"testing"

	"mvdan.cc/sh/v3/syntax"
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
	t.Parallel()
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

// bashTable lists commands Claude Code sends to Bash and, for those the
// guard refuses, a part of the reason it gives ("" = allowed). The guard
// fails closed: unknown programs, interpreters' inline code, arguments known
// only at run time and unparsable lines are refused.
var bashTable = []struct {
	cmd string
	why string
}{
	{"ls -la", ""},
	{"eval eval ls", ""},
	{"cat main.go", ""},
	{"go test ./... 2>&1", ""},
	{"go build ./... > /dev/null", ""},
	{"go vet ./... >/dev/null 2>&1", ""},
	{"make test &> /dev/null", ""},
	{"grep '>' file.txt", ""},
	{"grep \">\" file.txt", ""},
	{"grep \\> file.txt", ""},
	{"echo \"a > b\"", ""},
	{"echo 'x >> y' | wc -c", ""},
	{"git status", ""},
	{"git diff HEAD~1 -- a.go", ""},
	{"git log --oneline | head -5", ""},
	{"git -C sub --no-pager show HEAD", ""},
	{"git stash list", ""},
	{"git branch -a", ""},
	{"find . -name '*.go' -print", ""},
	{"find . -name '*.go' -exec grep -l foo {} \\;", ""},
	{"sed -n '1,20p' a.go", ""},
	{"sed 's/a/b/' a.go", ""},
	{"perl -ne 'print if /x/' a", "an interpreter runs code Paige cannot check"},
	{"tee", ""},
	{"echo hi | tee /dev/null", ""},
	{"FOO=bar go test ./...", ""},
	{"env GOOS=linux go build -o /dev/null .", ""},
	{"cd src && ls", ""},
	{"(cd src; ls)", ""},
	{"echo $(git rev-parse HEAD)", ""},
	{"diff <(sort a) <(sort b)", ""},
	{"cat <<EOF\nrm -rf /\nmv a b\nEOF", ""},
	{"cat <<-'END'\n\trm x\n\tEND\nls", ""},
	{"cat <<< 'rm x'", ""},
	{"wc -l < input.txt", ""},
	{"echo $((1 > 0))", ""},
	{"ls # > comment.txt", ""},
	{"command -v rm", ""},
	{"which mv cp", ""},
	{"for f in *.go; do wc -l $f; done", ""},
	{"if [ -f a ]; then cat a; else echo none; fi", ""},
	{"sort a | uniq -c | sort -rn | head", ""},
	{"echo x >&2", ""},
	{"echo x 1>&2", ""},
	{"ls 2>/dev/null || true", ""},
	{"bash -c 'ls -la'", ""},
	{"dd if=a.img bs=1 count=10", ""},
	{"echo 'unterminated", "cannot parse it"},
	{"curl -s https://example.com | jq .", ""},
	{"npm test", ""},
	{"[[ \"$a\" > \"$b\" ]] && echo later", ""},
	{"(( n > 3 )) && echo big", ""},
	{"x=$(( 2 > 1 ))", ""},
	{"[[ -f a ]] && echo x > out", "redirects output to \"out\" with >"},
	{"(( n > 3 )) && rm big", "rm changes files"},
	{"echo hi > out.txt", "redirects output to \"out.txt\" with >"},
	{"echo hi >> out.txt", "redirects output to \"out.txt\" with >>"},
	{"echo hi>out.txt", "redirects output to \"out.txt\" with >"},
	{"go test ./... > log.txt 2>&1", "redirects output to \"log.txt\" with >"},
	{"make &> build.log", "redirects output to \"build.log\" with &>"},
	{"cat a >| b", "redirects output to \"b\" with >|"},
	{"ls >& listing.txt", "redirects output to \"listing.txt\" with >&"},
	{"echo x > \"my file.txt\"", "redirects output to \"my file.txt\" with >"},
	{"echo x | tee out.txt", "tee writes to \"out.txt\""},
	{"echo x | tee -a out.txt", "tee writes to \"out.txt\""},
	{"sed -i 's/a/b/' a.go", "sed edits files in place (-i)"},
	{"sed -i.bak 's/a/b/' a.go", "sed edits files in place (-i)"},
	{"sed -Ei 's/a/b/' a.go", "sed edits files in place (-i)"},
	{"sed --in-place 's/a/b/' a.go", "sed edits files in place (-i)"},
	{"perl -pi -e 's/a/b/' a.go", "an interpreter runs code Paige cannot check"},
	{"mv a.go b.go", "mv changes files"},
	{"cp a.go b.go", "cp changes files"},
	{"rm -rf build", "rm changes files"},
	{"/bin/rm x", "rm changes files"},
	{"mkdir -p out", "mkdir changes files"},
	{"touch new.go", "touch changes files"},
	{"chmod +x run.sh", "chmod changes files"},
	{"ln -s a b", "ln changes files"},
	{"git add .", "git add may change the repository"},
	{"git commit -m 'wip'", "git commit may change the repository"},
	{"git push origin main", "git push may change the repository"},
	{"git -C sub commit -am x", "git commit may change the repository"},
	{"git checkout -- a.go", "git checkout may change the repository"},
	{"git stash", "git stash may change the repository"},
	{"go test ./... && git commit -am done", "git commit may change the repository"},
	{"ls; rm a", "rm changes files"},
	{"ls || rm a", "rm changes files"},
	{"ls | xargs rm", "xargs runs \"rm\" with arguments from its input"},
	{"find . -name '*.tmp' | xargs -n 1 rm -f", "xargs runs \"rm\" with arguments from its input"},
	{"find . -name '*.tmp' -delete", "find -delete removes files"},
	{"find . -name '*.tmp' -exec rm {} \\;", "rm changes files"},
	{"(cd src && rm a.go)", "rm changes files"},
	{"{ ls; rm a; }", "rm changes files"},
	{"echo $(rm a)", "rm changes files"},
	{"echo `touch x`", "touch changes files"},
	{"echo \"$(rm a)\"", "rm changes files"},
	{"bash -c 'rm -rf build'", "rm changes files"},
	{"sh -c \"echo x > y\"", "redirects output to \"y\" with >"},
	{"eval 'rm a'", "rm changes files"},
	{"sudo rm -rf /tmp/x", "rm changes files"},
	{"FOO=1 rm a", "rm changes files"},
	{"env -i PATH=/bin rm a", "rm changes files"},
	{"timeout 10 rm a", "rm changes files"},
	{"nohup mv a b &", "mv changes files"},
	{"time cp a b", "cp changes files"},
	{"if true; then rm a; fi", "rm changes files"},
	{"for f in *.go; do rm $f; done", "rm takes an argument known only at run time"},
	{"while read l; do echo $l >> out; done < in", "redirects output to \"out\" with >>"},
	{"cat <<EOF > notes.md\nhello\nEOF", "redirects output to \"notes.md\" with >"},
	{"dd if=/dev/zero of=disk.img bs=1M count=1", "dd writes to \"disk.img\""},
	{"truncate -s 0 log", "truncate changes files"},
	{"ls &&\\\nrm a", "rm changes files"},
	{"ls\nrm a", "rm changes files"},
	{"echo x > $OUT", "redirects output with > to a file named only at run time"},
	{"diff a b > >(tee out)", "redirects output with > to a file named only at run time"},
	{"git branch feature", "git branch may change the repository"},
	{"git tag v1", "git tag may change the repository"},
	{"git -c core.pager='rm a' log", "git -c can set a pager, alias or hook that runs commands"},
	{"git diff --output=x.patch", "git diff --output writes a file"},
	{"git log -p | head", ""},
	{"go test -coverprofile=c.out ./...", "go test -coverprofile writes a file"},
	{"go build -o /dev/null .", ""},
	{"go build -o bin/app .", "go build -o writes a file"},
	{"go mod tidy", "go mod may change files"},
	{"go generate ./...", "go generate may change files"},
	{"go fmt ./...", "go fmt may change files"},
	{"gofmt -l .", ""},
	{"gofmt -w main.go", "gofmt -w rewrites files"},
	{"go env -w GOFLAGS=x", "go env -w changes the Go configuration"},
	{"go run .", "go run may change files"},
	{"sed -n 's/a/b/w out.txt' a.go", "the sed script writes a file or runs a command (w, e)"},
	{"sed '1e rm a' f", "the sed script writes a file or runs a command (w, e)"},
	{"sed -e 's/x/y/' -e '/foo/d' a", ""},
	{"sed s/we/us/ a", ""},
	{"awk '{print $1}' a.txt", ""},
	{"awk '{print > \"out\"}' a", "the awk program may write a file or run a command"},
	{"awk 'BEGIN{system(\"rm a\")}'", "the awk program may write a file or run a command"},
	{"python3 -c 'open(\"x\",\"w\")'", "an interpreter runs code Paige cannot check"},
	{"python -m pytest -q", ""},
	{"node -e 'require(\"fs\").writeFileSync(\"x\",\"\")'", "an interpreter runs code Paige cannot check"},
	{"ruby -e 'File.write(\"x\",\"\")'", "an interpreter runs code Paige cannot check"},
	{"xargs grep foo", ""},
	{"find . -name '*.go' | xargs wc -l", ""},
	{"find . | xargs sed -i s/a/b/", "xargs runs \"sed\" with arguments from its input"},
	{"echo commit | xargs git", "xargs runs \"git\" with arguments from its input"},
	{"$CMD a.go", "runs a command whose name is known only at run time"},
	{"$(echo rm) a", "runs a command whose name is known only at run time"},
	{"sed $FLAGS s/a/b/ f", "sed takes an argument known only at run time"},
	{"git log $(git merge-base HEAD main)..HEAD", "git takes an argument known only at run time"},
	{"cat \"$f\"", ""},
	{"cat <<EOF\n$(rm a)\nEOF", "rm changes files"},
	{"cat > notes.md <<'EOF'\nx\nEOF", "redirects output to \"notes.md\" with >"},
	{"exec > out.log", "redirects output to \"out.log\" with >"},
	{"trap 'rm a' EXIT", "trap runs commands"},
	{"source env.sh", "source runs commands"},
	{". ./env.sh", ". runs commands"},
	{"bash script.sh", "a shell runs a script Paige cannot read"},
	{"sh", "a shell runs a script Paige cannot read"},
	{"bash -lc 'go test ./...'", ""},
	{"curl -o page.html https://x", "curl writes what it downloads to a file"},
	{"curl -sSLO https://x/a.tgz", "curl writes what it downloads to a file"},
	{"wget https://x", "cannot tell whether \"wget\" writes"},
	{"sort -o sorted.txt a", "sort -o writes a file"},
	{"sort -u a", ""},
	{"uniq a b", "uniq writes to \"b\""},
	{"make fmt", "make fmt may change files"},
	{"make test", ""},
	{"make", ""},
	{"npm run format", "npm run format may change files"},
	{"npm run lint", ""},
	{"npx prettier --write .", "cannot tell whether \"npx\" writes"},
	{"npm install", "npm install may change files"},
	{"cargo fmt", "cargo fmt may change files"},
	{"cargo fmt --check", ""},
	{"cargo clippy --fix", "cargo clippy may change files"},
	{"tsc", "tsc writes compiled files (use --noEmit)"},
	{"tsc --noEmit", ""},
	{"prettier --check .", ""},
	{"prettier --write .", "flag --write"},
	{"eslint --fix .", "flag --fix"},
	{"rg foo", ""},
	{"rg --pre cat foo", "flag --pre"},
	{"yq -i .a=1 f.yaml", "flag -i"},
	{"tree -o out.txt", "flag -o"},
	{"date", ""},
	{"date -s now", "flag -s"},
	{"xxd a.bin", ""},
	{"xxd -r dump a.bin", "xxd writes to \"a.bin\""},
	{"mycustomtool --flag", "cannot tell whether \"mycustomtool\" writes"},
	{"f() { rm a; }; f", "rm changes files"},
	{"ls() { cat a; }; ls", ""},
	{"alias ll='ls -l'", "alias runs commands"},
	{"watch -n 1 'ls'", ""},
	{"watch 'rm a'", "rm changes files"},
	{"env -S 'rm a'", "env -S runs a command line Paige does not parse"},
	{"time -o t.txt ls", "cannot tell whether \"-o\""},
	{"tee -a /dev/null", ""},
	{"coproc rm a", "rm changes files"},
	{"echo ok &", ""},
	{"! grep x a", ""},
	{"case $x in a) rm b;; esac", "rm changes files"},
	{"select x in a b; do rm $x; done", "rm takes an argument known only at run time"},
	{"declare x=$(rm a)", "rm changes files"},
	{"[[ $(rm a) ]]", "rm changes files"},
	{"echo ${x:-$(rm a)}", "rm changes files"},
	{"(( $(rm a) ))", "rm changes files"},
	{"x=1", ""},
	{"cd /tmp; cat a", ""},
	{"git stash show -p", ""},
	{"git config --get user.name", ""},
	{"git config user.name x", "git config may change the repository"},
	{"git remote -v", ""},
	{"git remote add o u", "git remote may change the repository"},
	{"git worktree list", ""},
	{"git worktree add ../x", "git worktree may change the repository"},
	{"git reflog", ""},
	{"git reflog expire --all", "git reflog may change the repository"},
	{"sudo -u root cat /etc/shadow", ""},
	{"nice -n 5 go test ./...", ""},
	{"ls | sh", "a shell runs a script Paige cannot read"},
	{"echo rm a | bash", "a shell runs a script Paige cannot read"},
	{"echo $'a\\x3e'", ""},
	{"printf '%s' a > /dev/null", ""},
	{"ls 2>&1 >/dev/null", ""},
	{"ls >&-", ""},
	{"ls {a,b}", ""},
	{"cat ~/x", ""},
	{"diff <(ls) <(rm a)", "rm changes files"},
}

func TestDecideReadOnlyBash(t *testing.T) {
	t.Parallel()
	for _, tt := range bashTable {
		t.Run(tt.cmd, func(t *testing.T) {
			got := DecideReadOnly("Bash", bashInput(t, tt.cmd))
			if got.Deny != (tt.why != "") {
				t.Fatalf("deny: got %v, want %v (reason %q)", got.Deny, tt.why != "", got.Reason)
			}
			if !strings.Contains(got.Reason, tt.why) {
				t.Errorf("reason %q does not say %q", got.Reason, tt.why)
			}
			if got.Deny && !strings.HasPrefix(got.Reason, reasonPrefix) {
				t.Errorf("reason %q lacks the coaching prefix", got.Reason)
			}
		})
	}
}

func TestShellWritesDepthLimit(t *testing.T) {
	t.Parallel()
	cmd := "eval " + strings.Repeat("eval ", maxDepth+1) + "ls"
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

// FuzzShellWritesFailsClosed checks that the classifier never allows a line
// it cannot parse, a simple command whose program it does not know (or
// whose name is known only at run time), or an output redirection to a
// file outside /dev, wherever they sit in the line.
func FuzzShellWritesFailsClosed(f *testing.F) {
	for _, tt := range bashTable {
		f.Add(tt.cmd)
	}
	f.Add("ls; frobnicate x")
	f.Add("echo $(unknown-tool)")
	f.Add("cat <<EOF\n$(mystery)\nEOF")
	f.Fuzz(func(t *testing.T, cmd string) {
		why := shellWrites(cmd, 0)
		if why != "" {
			return
		}
		file, err := syntax.NewParser(syntax.Variant(syntax.LangBash)).Parse(strings.NewReader(cmd), "")
		if err != nil {
			t.Fatalf("allowed %q, which does not parse: %v", cmd, err)
		}
		syntax.Walk(file, func(n syntax.Node) bool {
			switch n := n.(type) {
			case *syntax.CallExpr:
				if len(n.Args) == 0 {
					return true
				}
				prog, ok := literal(n.Args[0])
				if !ok {
					t.Fatalf("allowed %q, whose command name is only known at run time", cmd)
				}
				if p := progName(prog); !pureReaders[p] && checker(p) == nil {
					t.Fatalf("allowed %q, which runs the unknown program %q", cmd, p)
				}
			case *syntax.Redirect:
				target, ok := literal(n.Word)
				out := n.Op != syntax.RdrIn && n.Op != syntax.DplIn && n.Op != syntax.Hdoc &&
					n.Op != syntax.DashHdoc && n.Op != syntax.WordHdoc
				if out && !(ok && (strings.HasPrefix(target, "/dev/") || isDigits(target) || target == "-")) {
					t.Fatalf("allowed %q, which redirects output to %q", cmd, target)
				}
			}
			return true
		})
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
