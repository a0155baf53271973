package claudecode

import (
	"strings"
	"testing"

	"mvdan.cc/sh/v3/syntax"
)

// readOnlyCommands are commands a coached developer and Claude need while
// coaching; the guard allows every one.
var readOnlyCommands = []string{
	`ls -la`,
	`ls`,
	`pwd`,
	`cat main.go`,
	`head -n 20 src/auth.ts`,
	`tail -5 log.txt`,
	`wc -l *.go`,
	`grep -rn 'func main' .`,
	`grep '>' file.txt`,
	`echo "a > b"`,
	`rg -n TODO src`,
	`rg --files -g '*.go'`,
	`git status`,
	`git status --short`,
	`git diff`,
	`git diff --stat HEAD~1 -- a.go`,
	`git diff --cached --name-only`,
	`git log --oneline -10`,
	`git log -p --follow -- src/auth.ts | head -50`,
	`git show HEAD:src/auth.ts`,
	`git -C sub --no-pager show --stat HEAD`,
	`git blame -L 10,20 src/auth.ts`,
	`git branch -a`,
	`git branch --show-current`,
	`git stash list`,
	`git grep -n login`,
	`git rev-parse --show-toplevel`,
	`git ls-files '*.go'`,
	`git log --format='%h %s' --since=2.weeks`,
	`git diff HEAD -- "$f"`,
	`find . -name '*.go' -type f`,
	`find src -maxdepth 2 -name '*.ts' -print`,
	`find . \( -name a -o -name b \) -print0`,
	`tree -L 2`,
	`tree -a -I node_modules`,
	`sed -n '1,20p' a.go`,
	`sed 's/a/b/' a.go`,
	`sort a | uniq -c | sort -rn | head`,
	`diff a b`,
	`diff <(sort a) <(sort b)`,
	`cd src && ls`,
	`(cd src; ls)`,
	`go test ./... 2>&1`,
	`go test -run TestLogin -v ./internal/auth`,
	`go vet ./... >/dev/null 2>&1`,
	`go build ./...`,
	`go build -o /dev/null .`,
	`go list -m all`,
	`go env GOPATH`,
	`gofmt -l .`,
	`make test`,
	`npm test`,
	`npm run lint`,
	`cargo test --release`,
	`cargo fmt --check`,
	`jq .name package.json`,
	`which go`,
	`type ls`,
	`stat -c %s a.go`,
	`du -sh .`,
	`echo $(git rev-parse HEAD)`,
	`cat "$(git rev-parse --show-toplevel)/go.mod"`,
	`for f in *.go; do wc -l $f; done`,
	`if [ -f a ]; then cat a; else echo none; fi`,
	`[[ -f go.mod ]] && echo module`,
	"cat <<EOF\nrm -rf /\nmv a b\nEOF",
	`cat <<< 'rm x'`,
	`wc -l < input.txt`,
	`echo x >&2`,
	`echo x > /dev/stderr`,
	`ls 2>/dev/null || true`,
	`echo $((1 + 2))`,
	`ls # > comment.txt`,
	`printf '%s\n' a b`,
	`date +%Y-%m-%d`,
	`xxd -l 64 a.bin`,
	`file main.go`,
}

// bypasses are attempts to write a file or run a program while coaching,
// each with a part of the reason the guard gives.
var bypasses = []struct {
	cmd string
	why string
}{
	// environment and shell variables that make a reader run a program
	{`GIT_EXTERNAL_DIFF=./x.sh git diff`, "sets the variable GIT_EXTERNAL_DIFF"},
	{`GIT_CONFIG_COUNT=1 GIT_CONFIG_KEY_0=core.pager GIT_CONFIG_VALUE_0='touch x' git log`, "sets the variable GIT_CONFIG_COUNT"},
	{`GIT_PAGER='sh -c "touch x"' git -p log`, "sets the variable GIT_PAGER"},
	{`BASH_ENV=./evil.sh ls`, "sets the variable BASH_ENV"},
	{`PAGER='rm a' git log`, "sets the variable PAGER"},
	{`LESSOPEN='|touch x' cat a`, "sets the variable LESSOPEN"},
	{`PATH=.:$PATH ls`, "sets the variable PATH"},
	{`LD_PRELOAD=./x.so ls`, "sets the variable LD_PRELOAD"},
	{`GOFLAGS=-toolexec=./x go test ./...`, "sets the variable GOFLAGS"},
	{`x=1`, "sets the variable x"},
	{`export GIT_EXTERNAL_DIFF=./x; git diff`, "export sets variables"},
	{`declare -x PAGER=./x`, "declare sets variables"},
	{`local x=1`, "local sets variables"},
	{`readonly x=1`, "readonly sets variables"},
	{`let x=1`, "sets variables"},
	{`read -r PAGER <<< ./x`, "read sets variables"},
	{`echo ${PAGER:=./x}`, "${…=…} assigns a variable"},
	{`echo ${x@P}`, "transforms a value"},
	{`(( x = 1 ))`, "assigns a variable in arithmetic"},
	{`echo $(( x++ ))`, "assigns a variable in arithmetic"},
	{`echo $(( a[$(touch x)] ))`, "arithmetic"},
	{`[[ -v 'a[$(touch x)]' ]]`, "-v"},
	{`test -v 'a[$(touch x)]'`, "test -v"},
	{`printf -v PAGER ./x`, "printf -v is not an option"},
	{`env PAGER=./x git log`, "env runs a command with changed variables"},
	{`env`, "env runs"},
	{`set -o posix`, "set changes the shell's options"},
	// options that write or run programs
	{`git grep -O./x.sh foo`, "git grep -O is not an option"},
	{`git grep --open-files-in-pager=./x foo`, "--open-files-in-pager is not an option"},
	{`git diff --output=x.patch`, "git diff --output is not an option"},
	{`git log --output x`, "--output is not an option"},
	{`git diff --ext-diff`, "--ext-diff is not an option"},
	{`git -c core.pager='touch x' log`, "git -c is not an option"},
	{`git -c color.ui=always log`, "git -c is not an option"},
	{`git --exec-path=. status`, "--exec-path is not an option"},
	{`git --git-dir=/tmp/evil/.git log`, "--git-dir is not an option"},
	{`git config core.pager 'touch x'`, "git config is not a subcommand"},
	{`git config --get user.name`, "git config is not a subcommand"},
	{`git add .`, "git add is not a subcommand"},
	{`git commit -m wip`, "git commit is not a subcommand"},
	{`git push origin main`, "git push is not a subcommand"},
	{`git checkout -- a.go`, "git checkout is not a subcommand"},
	{`git restore a.go`, "git restore is not a subcommand"},
	{`git stash`, "git stash saves and resets"},
	{`git stash push`, "git stash push is not a subcommand"},
	{`git branch feature`, "git branch feature creates one"},
	{`git branch -D main`, "git branch -D is not an option"},
	{`git tag v1`, "git tag v1 creates one"},
	{`git apply x.patch`, "git apply is not a subcommand"},
	{`git help log`, "git help is not a subcommand"},
	{`git log $(printf -- --output=x)`, "takes an argument known only at run time"},
	{`git log $_`, "takes an argument known only at run time"},
	{`git diff {-,}-output=x`, "takes an argument known only at run time"},
	{`go test -exec ./x.sh ./...`, "go test -exec is not a flag"},
	{`go test -toolexec=./x ./...`, "go test -toolexec is not a flag"},
	{`go test -coverprofile=c.out ./...`, "-coverprofile is not a flag"},
	{`go test -fuzz=Fuzz ./...`, "go test -fuzz is not a flag"},
	{`go test ./... -args -test.coverprofile=x`, "-args is not a flag"},
	{`go vet -vettool=./x ./...`, "go vet -vettool is not a flag"},
	{`go build -ldflags='-extld=./x.sh -linkmode=external' ./...`, "go build -ldflags is not a flag"},
	{`go test -gcflags=-cpuprofile=x ./...`, "go test -gcflags is not a flag"},
	{`staticcheck -debug.cpuprofile=x ./...`, `"staticcheck" is not a command Paige knows`},
	{`go build -o bin/app .`, "go build -o writes a file"},
	{`go build -mod=mod ./...`, "may rewrite go.mod"},
	{`go run .`, "go run is not a go subcommand"},
	{`go generate ./...`, "go generate is not a go subcommand"},
	{`go mod tidy`, "go mod changes go.mod"},
	{`go env -w GOFLAGS=x`, "go env -w is not a flag"},
	{`go fmt ./...`, "go fmt is not a go subcommand"},
	{`gofmt -w main.go`, "gofmt -w is not an option"},
	{`make --eval='x:;touch y' x`, "make --eval is not an option"},
	{`make -E 'x:;touch y' x`, "make -E is not an option"},
	{`make -f evil.mk test`, "make -f is not an option"},
	{`make test SHELL=./x`, "make SHELL=./x is not a target"},
	{`make install`, "make install is not a target"},
	{`npm install`, "npm install is not a subcommand"},
	{`npm run format`, "only the test, check"},
	{`cargo clippy --fix`, "--fix is not an option"},
	{`cargo fmt`, "cargo fmt rewrites files"},
	{`rg --pre ./x.sh foo`, "rg --pre is not an option"},
	{`rg --hostname-bin=./x foo`, "--hostname-bin is not an option"},
	{`tree -o out.txt`, "tree -o is not an option"},
	{`tree -R -H .`, "tree -R"},
	{`sort -o out a`, "sort -o is not an option"},
	{`sort --compress-program=./x a`, "--compress-program is not an option"},
	{`uniq a out`, "takes at most 1 operand"},
	{`xxd -r a.hex a.bin`, "takes at most 1 operand"},
	{`date -s '2020-01-01'`, "date -s is not an option"},
	{`date 0101000020`, "sets the clock"},
	{`file -C -m x`, "file -C is not an option"},
	{`prettier --write .`, "prettier --write is not an option"},
	{`tsc`, "tsc writes compiled files"},
	{`eslint --fix .`, "eslint --fix is not an option"},
	// find, sed, awk, xargs and the interpreters
	{`find . -name '*.tmp' -delete`, "find -delete is not a test or action"},
	{`find . -exec touch x \;`, "find -exec is not a test or action"},
	{`find . -execdir rm {} +`, "find -execdir"},
	{`find . -ok rm {} \;`, "find -ok"},
	{`find . -fprint out`, "find -fprint"},
	{`find . -fls out`, "find -fls"},
	{`find . $_`, "find takes an argument known only at run time"},
	{`sed -i 's/a/b/' a.go`, "sed -i is not an option"},
	{`sed --in-place 's/a/b/' a.go`, "sed --in-place is not an option"},
	{`sed -f script.sed a`, "sed -f is not an option"},
	{`sed -n 's/a/b/w out.txt' a.go`, "the sed script writes a file or runs a command"},
	{`sed '1e touch x' f`, "the sed script writes a file or runs a command"},
	{`sed "s/$x/y/" f`, "the sed script is known only at run time"},
	{`awk 'BEGIN{system("touch x")}'`, "awk programs can write files"},
	{`awk '{print > "out"}' a`, "awk programs can write files"},
	{`ls | xargs rm`, "xargs runs a command with arguments from its input"},
	{`find . | xargs cat`, "xargs runs"},
	{`python -c 'open("x","w")'`, "python runs code"},
	{`python3 -m http.server`, "python3 runs code"},
	{`node -e 'require("fs").writeFileSync("x","")'`, "node runs code"},
	{`perl -pi -e 's/a/b/' a.go`, "perl runs code"},
	{`ruby -e 'File.write("x","")'`, "ruby runs code"},
	// shells, eval, source, wrappers, pagers and editors
	{`eval 'touch x'`, "eval runs a string"},
	{`source env.sh`, "source runs a script"},
	{`. ./env.sh`, ". runs a script"},
	{`bash -c 'ls'`, "bash runs a script or command string"},
	{`sh -c 'touch x'`, "sh runs a script or command string"},
	{`echo ls | sh`, "sh runs"},
	{`exec ls`, "exec replaces the shell"},
	{`command touch x`, "command runs a command"},
	{`builtin cd`, "builtin runs builtins"},
	{`sudo ls`, "sudo runs a command as another user"},
	{`nohup ls &`, "nohup writes nohup.out"},
	{`timeout 5 touch x`, `"timeout" is not a command Paige knows`},
	{`time touch x`, "touch creates files"},
	{`nice ls`, "nice runs a command"},
	{`watch ls`, "watch runs a command string"},
	{`trap 'touch x' EXIT`, "trap runs commands"},
	{`alias ls='touch x'`, "alias defines commands"},
	{`f() { touch x; }; f`, "defines a function"},
	{`coproc touch x`, "runs a coprocess"},
	{`less a.go`, "less is interactive"},
	{`more a.go`, "more is interactive"},
	{`vim -c ':!touch x' -c ':q' a`, "vim is an editor"},
	{`man ls`, "man runs a pager"},
	{`$CMD a.go`, "runs a command whose name is known only at run time"},
	{`$(echo rm) a`, "runs a command whose name is known only at run time"},
	{`/bin/rm x`, `runs "/bin/rm" by path`},
	{`./x.sh`, `runs "./x.sh" by path`},
	// substitutions of what is not allowed
	{`echo $(touch x)`, "touch creates files"},
	{"echo `touch x`", "touch creates files"},
	{`echo "$(rm a)"`, "rm removes files"},
	{`cat <(make install)`, "make install is not a target"},
	{`diff a b > >(cat)`, "redirects output with > to a file named only at run time"},
	{"cat <<EOF\n$(rm a)\nEOF", "rm removes files"},
	{`ls; rm a`, "rm removes files"},
	{`ls && rm a`, "rm removes files"},
	{`ls || rm a`, "rm removes files"},
	{`ls | tee out`, "tee writes files"},
	{`(cd src && rm a.go)`, "rm removes files"},
	{`{ ls; rm a; }`, "rm removes files"},
	{`if true; then rm a; fi`, "rm removes files"},
	{`for f in *; do mv $f $f.bak; done`, "mv moves files"},
	{"ls\nrm a", "rm removes files"},
	// redirects that write
	{`echo hi > out.txt`, `redirects output to "out.txt" with >`},
	{`echo hi >> out.txt`, "with >>"},
	{`echo hi >| out.txt`, "with >|"},
	{`ls &> out.txt`, "with &>"},
	{`ls &>> out.txt`, "with &>>"},
	{`ls >& out.txt`, "with >&"},
	{`ls 2> err.txt`, "with >"},
	{`cat a 1<> b`, "with <>"},
	{`echo x > /dev/fd/3`, `redirects output to "/dev/fd/3"`},
	{`echo x >> /dev/fd/5`, "/dev/fd/5"},
	{`echo x > /proc/self/fd/1`, "/proc/self/fd/1"},
	{`echo x > /dev/tty`, "/dev/tty"},
	{`echo x > $OUT`, "redirects output with > to a file named only at run time"},
	{"cat <<EOF > notes.md\nhello\nEOF", `redirects output to "notes.md"`},
	{`exec 3> out; echo x >&3`, "exec replaces the shell"},
	{`{ echo x; } 3> out`, `redirects output to "out"`},
	{`dd if=a of=b`, "dd writes files"},
	{`touch new.go`, "touch creates files"},
	{`cp a b`, "cp copies files"},
	{`curl -o page.html https://x`, "curl downloads"},
	{`wget https://x`, "wget downloads"},
	{`frobnicate --all`, `"frobnicate" is not a command Paige knows`},
	{`echo 'unterminated`, "cannot parse it"},
}

func TestDecideReadOnlyBash(t *testing.T) {
	t.Parallel()
	if len(bypasses) < 100 || len(readOnlyCommands) < 30 {
		t.Fatalf("%d bypass attempts and %d read-only commands; the table needs at least 100 and 30", len(bypasses), len(readOnlyCommands))
	}
	for _, cmd := range readOnlyCommands {
		t.Run("read "+cmd, func(t *testing.T) {
			if got := DecideReadOnly("Bash", bashInput(t, cmd)); got.Deny {
				t.Errorf("denied a read-only command: %s", got.Reason)
			}
		})
	}
	for _, tt := range bypasses {
		t.Run("bypass "+tt.cmd, func(t *testing.T) {
			got := DecideReadOnly("Bash", bashInput(t, tt.cmd))
			if !got.Deny {
				t.Fatal("allowed")
			}
			if !strings.Contains(got.Reason, tt.why) || !strings.HasPrefix(got.Reason, reasonPrefix) {
				t.Errorf("reason %q does not say %q", got.Reason, tt.why)
			}
		})
	}
}

func FuzzDecideReadOnly(f *testing.F) {
	for _, tt := range bypasses {
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
		_ = DecideReadOnly(tool, []byte(cmd))
	})
}

// FuzzGuardFailsClosed checks that the guard never allows a line it
// cannot parse, a simple command whose program is not in its table (or
// whose name is known only at run time), an assignment, or an output
// redirection to a file other than /dev/null, /dev/stdout and /dev/stderr,
// wherever they sit in the line.
func FuzzGuardFailsClosed(f *testing.F) {
	for _, tt := range bypasses {
		f.Add(tt.cmd)
	}
	for _, c := range readOnlyCommands {
		f.Add(c)
	}
	f.Add("ls; frobnicate x")
	f.Add("echo $(unknown-tool)")
	f.Add("cat <<EOF\n$(mystery)\nEOF")
	f.Fuzz(func(t *testing.T, cmd string) {
		if walkLine(cmd) != "" {
			return
		}
		file, err := syntax.NewParser(syntax.Variant(syntax.LangBash)).Parse(strings.NewReader(cmd), "")
		if err != nil {
			t.Fatalf("allowed %q, which does not parse: %v", cmd, err)
		}
		syntax.Walk(file, func(n syntax.Node) bool {
			switch n := n.(type) {
			case *syntax.Assign, *syntax.DeclClause, *syntax.FuncDecl:
				t.Fatalf("allowed %q, which assigns or defines", cmd)
			case *syntax.CallExpr:
				if len(n.Args) == 0 {
					return true
				}
				prog, ok := literal(n.Args[0])
				if !ok {
					t.Fatalf("allowed %q, whose command name is only known at run time", cmd)
				}
				if programs[prog] == nil {
					t.Fatalf("allowed %q, which runs %q, not in the table", cmd, prog)
				}
			case *syntax.Redirect:
				target, ok := literal(n.Word)
				out := n.Op != syntax.RdrIn && n.Op != syntax.DplIn && n.Op != syntax.Hdoc &&
					n.Op != syntax.DashHdoc && n.Op != syntax.WordHdoc
				if out && !(ok && (safeTargets[target] || isDigits(target) || target == "-")) {
					t.Fatalf("allowed %q, which redirects output to %q", cmd, target)
				}
			}
			return true
		})
	})
}

// BenchmarkDecideReadOnly decides a typical compound command.
func BenchmarkDecideReadOnly(b *testing.B) {
	in := bashInput(b, `cd src && go test ./... 2>&1 | grep -v '^ok' > /dev/null; echo "done: $(date +%s)"`)
	for i := 0; i < b.N; i++ {
		if DecideReadOnly("Bash", in).Deny {
			b.Fatal("denied a read-only command")
		}
	}
}
