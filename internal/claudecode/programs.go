package claudecode

import (
	"regexp"
	"strings"
)

// The checkers of the programs whose effect depends on their arguments.
// Each allows the read-only uses Claude makes while coaching and refuses
// everything else, naming the argument that writes.

// gitReaders are the git subcommands that only read the repository.
var gitReaders = setOf("status", "diff", "log", "show", "blame", "grep", "rev-parse",
	"ls-files", "ls-tree", "cat-file", "describe", "shortlog", "whatchanged", "rev-list",
	"merge-base", "name-rev", "for-each-ref", "show-ref", "version", "help",
	"count-objects", "check-ignore", "var", "annotate", "cherry")

// gitWrites checks git's global options and its subcommand.
func gitWrites(args []string, _ int) string {
	for len(args) > 0 {
		a := args[0]
		switch {
		case a == "-c":
			if len(args) < 2 || !strings.HasPrefix(args[1], "color.") {
				return "git -c can set a pager, alias or hook that runs commands"
			}
			args = args[2:]
		case a == "-C" || a == "--git-dir" || a == "--work-tree" || a == "--namespace":
			if len(args) < 2 {
				return "git " + a + " lacks its value"
			}
			args = args[2:]
		case strings.HasPrefix(a, "-"):
			args = args[1:]
		default:
			return gitSubWrites(a, args[1:])
		}
	}
	return "" // git alone prints its usage
}

func gitSubWrites(sub string, rest []string) string {
	if hasFlag(rest, "--output", "-O", "--open-files-in-pager") {
		return "git " + sub + " --output writes a file"
	}
	ok := false
	switch sub {
	case "branch":
		ok = !hasFlag(rest, "-d", "-D", "-m", "-M", "-c", "-C", "-f", "--force", "--delete",
			"--move", "--copy", "-u", "--set-upstream-to", "--unset-upstream", "--edit-description") &&
			(len(positional(rest)) == 0 || hasFlag(rest, "-l", "--list", "--contains", "--merged", "--no-merged", "--points-at"))
	case "tag":
		ok = len(rest) == 0 || hasFlag(rest, "-l", "--list")
	case "remote":
		ok = len(rest) == 0 || rest[0] == "-v" || rest[0] == "show" || rest[0] == "get-url"
	case "stash":
		ok = len(rest) > 0 && (rest[0] == "list" || rest[0] == "show")
	case "config":
		ok = hasFlag(rest, "--get", "--get-all", "--get-regexp", "--list", "-l")
	case "worktree":
		ok = len(rest) > 0 && rest[0] == "list"
	case "reflog":
		ok = len(rest) == 0 || rest[0] == "show"
	default:
		ok = gitReaders[sub]
	}
	if !ok {
		return "git " + sub + " may change the repository"
	}
	return ""
}

// goOutputFlags are the go build/test flags that name a file to write.
var goOutputFlags = []string{"-o", "-coverprofile", "-cpuprofile", "-memprofile",
	"-blockprofile", "-mutexprofile", "-trace", "-outputdir"}

// goWrites allows the go subcommands that build, test and inspect without
// touching the sources; output files other than /dev/null are refused.
func goWrites(args []string, _ int) string {
	if len(args) == 0 {
		return ""
	}
	sub, rest := args[0], args[1:]
	switch sub {
	case "test", "vet", "build", "list", "version", "doc", "help":
		for i, a := range rest {
			for _, f := range goOutputFlags {
				target, ok := strings.CutPrefix(a, f+"=")
				if a == f {
					target, ok = valueAfter(rest[i:], f), true
				}
				if ok && !isSafeTarget(target) {
					return "go " + sub + " " + f + " writes a file"
				}
			}
		}
		return ""
	case "env":
		if hasFlag(rest, "-w", "-u") {
			return "go env -w changes the Go configuration"
		}
		return ""
	case "mod":
		if len(rest) > 0 && (rest[0] == "graph" || rest[0] == "why" || rest[0] == "verify") {
			return ""
		}
	}
	return "go " + sub + " may change files"
}

// valueAfter returns the argument after flag in args, or "".
func valueAfter(args []string, flag string) string {
	for i, a := range args {
		if a == flag && i+1 < len(args) {
			return args[i+1]
		}
	}
	return ""
}

func gofmtWrites(args []string, _ int) string {
	if hasShort(args, "w") {
		return "gofmt -w rewrites files"
	}
	return ""
}

// sedWriteCmd finds the w, W and e commands (and the w and e flags of s)
// in a sed script; it may refuse a script that only looks like one.
var sedWriteCmd = regexp.MustCompile(`(^|[;{}\n\d$!\s])[wWe](\s|;|$)|/[gpiImM0-9]*[we][gpiImM0-9]*(\s|;|}|$)`)

func sedWrites(args []string, _ int) string {
	if hasFlag(args, "--in-place") || hasShort(args, "i") {
		return "sed edits files in place (-i)"
	}
	if hasFlag(args, "-f", "--file") || hasShort(args, "f") {
		return "sed -f runs a script file Paige cannot read"
	}
	scripts := []string{}
	for i, a := range args {
		if (a == "-e" || a == "--expression") && i+1 < len(args) {
			scripts = append(scripts, args[i+1])
		} else if s, ok := strings.CutPrefix(a, "--expression="); ok {
			scripts = append(scripts, s)
		}
	}
	if len(scripts) == 0 {
		if p := positional(args); len(p) > 0 {
			scripts = p[:1]
		}
	}
	for _, s := range scripts {
		if sedWriteCmd.MatchString(s) {
			return "the sed script writes a file or runs a command (w, e)"
		}
	}
	return ""
}

// awkWrites refuses awk programs that could print to a file or run a
// command (>, |, system, getline) and in-place editing.
func awkWrites(args []string, _ int) string {
	if hasFlag(args, "-f", "-i", "--file", "--include") {
		return "awk -f/-i loads a program Paige cannot read"
	}
	p := positional(args)
	if len(p) == 0 { // only the program matters; the rest are files
		return ""
	}
	if strings.ContainsAny(p[0], ">|") || strings.Contains(p[0], "system") || strings.Contains(p[0], "getline") {
		return "the awk program may write a file or run a command"
	}
	return ""
}

// findWrites refuses -delete and the file-printing actions, and checks the
// commands of -exec/-execdir/-ok/-okdir.
func findWrites(args []string, depth int) string {
	for i := 0; i < len(args); i++ {
		switch args[i] {
		case "-delete":
			return "find -delete removes files"
		case "-fprint", "-fprint0", "-fprintf", "-fls":
			return "find " + args[i] + " writes a file"
		case "-exec", "-execdir", "-ok", "-okdir":
			j := i + 1
			for j < len(args) && args[j] != ";" && args[j] != "+" {
				j++
			}
			if why := argsWrite(args[i+1:j], depth); why != "" {
				return why
			}
			i = j
		}
	}
	return ""
}

func teeWrites(args []string, _ int) string {
	for _, a := range positional(args) {
		if !isSafeTarget(a) {
			return "tee writes to " + quote(a)
		}
	}
	return ""
}

func ddWrites(args []string, _ int) string {
	for _, a := range args {
		if t, ok := strings.CutPrefix(a, "of="); ok && !isSafeTarget(t) {
			return "dd writes to " + quote(t)
		}
	}
	return ""
}

func sortWrites(args []string, _ int) string {
	if hasFlag(args, "--output") || hasShort(args, "o") {
		return "sort -o writes a file"
	}
	return ""
}

// outputOperandWrites returns the checker of prog, a program that takes
// its output file as the second operand (uniq in out, xxd in out).
func outputOperandWrites(prog string) func([]string, int) string {
	return func(args []string, _ int) string {
		if p := positional(args); len(p) > 1 && !isSafeTarget(p[1]) {
			return prog + " writes to " + quote(p[1])
		}
		return ""
	}
}

func curlWrites(args []string, _ int) string {
	if hasFlag(args, "--output", "--remote-name", "--remote-name-all", "--output-dir",
		"--dump-header", "--cookie-jar", "--config", "--upload-file") || hasShort(args, "oODcKT") {
		return "curl writes what it downloads to a file"
	}
	return ""
}

// npmWrites allows running the tests, lint and build scripts and the
// commands that list packages.
func npmWrites(args []string, _ int) string {
	p := positional(args)
	if len(p) == 0 {
		return ""
	}
	switch p[0] {
	case "test", "t", "ls", "list", "view", "outdated":
		return ""
	case "run", "run-script":
		if len(p) > 1 && isCheckTarget(p[1]) {
			return ""
		}
	}
	return "npm " + strings.Join(p[:min(2, len(p))], " ") + " may change files"
}

// isCheckTarget reports whether a make target or package script is one
// that checks or builds rather than rewrites (fmt, fix, generate).
func isCheckTarget(t string) bool {
	switch t {
	case "test", "check", "lint", "vet", "build", "typecheck", "all":
		return true
	}
	return strings.HasPrefix(t, "test")
}

func makeWrites(args []string, _ int) string {
	if hasFlag(args, "-f", "--file", "--makefile") {
		return "make -f runs a makefile of its own"
	}
	for _, t := range positional(args) {
		if !isAssignment(t) && !isCheckTarget(t) {
			return "make " + t + " may change files"
		}
	}
	return ""
}

func cargoWrites(args []string, _ int) string {
	p := positional(args)
	if len(p) == 0 {
		return ""
	}
	switch p[0] {
	case "test", "build", "check", "tree", "metadata", "bench", "doc":
		return ""
	case "clippy":
		if !hasFlag(args, "--fix") {
			return ""
		}
	case "fmt":
		if hasFlag(args, "--check") {
			return ""
		}
	}
	return "cargo " + p[0] + " may change files"
}

func tscWrites(args []string, _ int) string {
	if hasFlag(args, "--noEmit", "--version", "-v", "--help") {
		return ""
	}
	return "tsc writes compiled files (use --noEmit)"
}

func pythonWrites(args []string, _ int) string {
	if len(args) >= 2 && args[0] == "-m" && (args[1] == "pytest" || args[1] == "unittest") {
		return ""
	}
	return versionOnly(args, 0)
}

// versionOnly allows an interpreter only to print its version: its inline
// code (-c, -e) or scripts can do anything.
func versionOnly(args []string, _ int) string {
	if len(args) == 1 && (args[0] == "--version" || args[0] == "-V" || args[0] == "-v") {
		return ""
	}
	return "an interpreter runs code Paige cannot check"
}

// flagWrites returns a checker that refuses any of flags, each of which
// writes files or runs a command.
func flagWrites(flags ...string) func([]string, int) string {
	return func(args []string, _ int) string {
		for _, f := range flags {
			if hasFlag(args, f) {
				return "its flag " + f + " writes files or runs a command"
			}
		}
		return ""
	}
}
