package claudecode

// readers are the programs none of whose options writes a file or runs
// another program: their arguments are not checked.
var readers = []string{
	// shell builtins that only read or move around
	"cd", "pushd", "popd", "dirs", "true", "false", ":", "pwd", "type", "which", "whereis",
	"sleep", "wait", "exit", "return", "echo",
	// coreutils and friends that print what they read
	"ls", "cat", "head", "tail", "wc", "grep", "egrep", "fgrep", "diff", "cmp", "comm",
	"stat", "du", "df", "basename", "dirname", "realpath", "readlink", "cut", "tr",
	"nl", "od", "hexdump", "strings", "column", "fold", "fmt", "paste", "join", "rev", "tac",
	"expand", "unexpand", "seq", "id", "whoami", "uname", "printenv", "nproc", "free",
	"uptime", "ps", "pgrep", "jq", "sha256sum", "sha1sum", "md5sum", "sha512sum", "cksum",
	"base64", "zcat", "lsof",
}

// refused are programs Claude reaches for that the guard never allows,
// with the reason Claude is told (after the program's name).
var refused = map[string]string{
	"eval": "runs a string as a command line; run the command itself", "source": "runs a script Paige cannot read",
	".": "runs a script Paige cannot read", "exec": "replaces the shell", "builtin": "runs builtins Paige does not check",
	"command": "runs a command Paige does not check; use `type` or `which` to look one up",
	"bash":    "runs a script or command string; run the command itself", "sh": "runs a script or command string; run the command itself",
	"zsh": "runs a script or command string; run the command itself", "dash": "runs a script or command string; run the command itself",
	"env":   "runs a command with changed variables; run the command itself (plain `printenv` lists the environment)",
	"xargs": "runs a command with arguments from its input, which Paige cannot check; list the files and read them",
	"sudo":  "runs a command as another user", "doas": "runs a command as another user", "nohup": "writes nohup.out",
	"nice": "runs a command Paige does not check; run it directly", "time": "runs a command Paige does not check; run it directly",
	"watch": "runs a command string repeatedly", "trap": "runs commands on signals", "alias": "defines commands",
	"python": "runs code; read the file instead", "python3": "runs code; read the file instead", "node": "runs code; read the file instead",
	"perl": "runs code; read the file instead", "ruby": "runs code; read the file instead", "php": "runs code; read the file instead",
	"less": "is interactive and can run commands (!cmd, v); use cat, head or sed -n", "more": "is interactive and can run commands; use cat or head",
	"vi": "is an editor", "vim": "is an editor", "view": "is an editor and can run commands", "nano": "is an editor", "emacs": "is an editor",
	"man": "runs a pager that can run commands; use `man -P cat`-free help: the program's --help", "tee": "writes files",
	"dd": "writes files", "curl": "downloads, and can write files; ask the developer to fetch it", "wget": "downloads files",
	"rm": "removes files", "mv": "moves files", "cp": "copies files", "mkdir": "creates directories", "touch": "creates files",
	"chmod": "changes permissions", "chown": "changes owners", "ln": "creates links", "truncate": "changes files",
	"install": "copies files", "rsync": "copies files", "patch": "changes files", "unlink": "removes files", "shred": "destroys files",
	"awk":  "programs can write files and run commands (system(), print >, |); use grep, cut or sed -n",
	"gawk": "programs can write files and run commands", "mawk": "programs can write files and run commands",
	"read": "sets variables", "export": "sets variables", "declare": "sets variables", "typeset": "sets variables",
	"local": "sets variables", "readonly": "sets variables", "set": "changes the shell's options", "shopt": "changes the shell's options",
	"unset": "changes variables", "let": "sets variables",
}

// programs is the allowlist: every program the guard lets run while
// coaching, with the options it may take.
var programs = func() map[string]*spec {
	m := map[string]*spec{
		"git":           gitSpec,
		"go":            {check: goWhy},
		"gofmt":         {short: "ldes", maxOperands: -1},
		"find":          {check: findWhy},
		"sed":           {short: "nEraszu", shortVal: "e", long: words("quiet silent regexp-extended posix separate null-data unbuffered debug sandbox"), longVal: words("expression line-length"), maxOperands: -1, then: sedThen},
		"rg":            rgSpec,
		"tree":          {short: "adfilnpsugDFhCJXvtrUQNqAS", shortVal: "LIPH", long: words("noreport dirsfirst gitignore prune matchdirs ignore-case du si"), longVal: words("filelimit charset sort"), maxOperands: -1, then: treeThen},
		"sort":          {short: "bdfghiMnRrsuVzc", shortVal: "ktS", long: words("numeric-sort reverse unique ignore-case human-numeric-sort version-sort stable zero-terminated check general-numeric-sort month-sort random-sort ignore-leading-blanks dictionary-order"), longVal: words("key field-separator buffer-size sort"), maxOperands: -1},
		"uniq":          {short: "cdDiuz", shortVal: "fsw", long: words("count repeated unique ignore-case zero-terminated"), longVal: words("skip-fields skip-chars check-chars"), maxOperands: 1},
		"xxd":           {short: "ubpiEeCdr", shortVal: "lscgo", maxOperands: 1, then: xxdThen},
		"file":          {short: "bihLzkNr0sEpl", long: words("brief mime mime-type mime-encoding dereference no-dereference keep-going raw special-files uncompress"), maxOperands: -1},
		"date":          {short: "uRI", shortVal: "dr", long: words("utc universal rfc-email"), longVal: words("date reference iso-8601 rfc-3339"), maxOperands: 1, then: dateThen},
		"make":          {short: "kisSw", shortVal: "j", long: words("keep-going silent quiet no-print-directory print-directory"), longVal: words("jobs"), maxOperands: -1, then: makeThen},
		"npm":           npmSpec,
		"pnpm":          npmSpec,
		"yarn":          npmSpec,
		"cargo":         cargoSpec,
		"pytest":        {short: "qvxsrl", shortVal: "kmr", long: words("collect-only co lf ff strict-markers no-header showlocals"), longVal: words("tb maxfail durations"), maxOperands: -1},
		"tsc":           {short: "", shortVal: "p", long: words("noEmit pretty strict version help listFiles"), longVal: words("project"), then: tscThen},
		"eslint":        {short: "", shortVal: "c", long: words("quiet no-eslintrc no-ignore"), longVal: words("max-warnings ext config format"), maxOperands: -1},
		"prettier":      {short: "cl", long: words("check list-different"), longVal: words("config"), maxOperands: -1, then: prettierThen},
		"printf":        {posix: true, maxOperands: -1},
		"test":          {check: testWhy},
		"[":             {check: testWhy},
		"golangci-lint": {short: "v", long: words("verbose version"), longVal: words("timeout config enable disable"), sub: map[string]*spec{"run": {short: "v", long: words("verbose new fast"), longVal: words("timeout config enable disable out-format build-tags new-from-rev"), maxOperands: -1}, "linters": {}, "version": {}}},
	}
	for _, r := range readers {
		m[r] = &spec{any: true}
	}
	return m
}()

// rgSpec lists ripgrep's reading options; --pre (runs a program on each
// file), --hostname-bin and the like are not among them.
var rgSpec = &spec{
	short:    "ilLnNwvcxoFHhsSuUPqaz0",
	shortVal: "ABCefgmtTdjM",
	long: words("ignore-case smart-case case-sensitive files files-with-matches files-without-match count count-matches " +
		"line-number no-line-number word-regexp invert-match fixed-strings hidden no-ignore no-ignore-vcs follow " +
		"json heading no-heading column vimgrep only-matching multiline pcre2 stats trim null text " +
		"no-messages with-filename no-filename quiet type-list byte-offset passthru"),
	longVal: words("after-context before-context context regexp file glob iglob type type-not max-count max-depth " +
		"sort sortr color colors max-columns threads max-filesize encoding replace type-add"),
	maxOperands: -1,
}

// npmSpec allows the package managers' tests, listings and check scripts.
var npmSpec = &spec{
	short: "s", long: words("silent version"),
	sub: map[string]*spec{
		"test": {short: "s", long: words("silent"), maxOperands: -1}, "t": {short: "s", maxOperands: -1},
		"ls": {long: words("all depth json long")}, "list": {long: words("all json long")},
		"view": {long: words("json"), maxOperands: -1}, "outdated": {long: words("json long")},
		"run": {short: "s", long: words("silent"), maxOperands: -1, then: runScriptThen}, "run-script": {maxOperands: -1, then: runScriptThen},
		"--version": {},
	},
}

// cargoSpec allows cargo's building, testing and inspecting subcommands.
var cargoSpec = func() *spec {
	build := &spec{short: "qv", shortVal: "pj", long: words("release all workspace all-features no-default-features lib bins tests benches all-targets quiet verbose no-run offline locked frozen"),
		longVal: words("package features target jobs bin test bench example manifest-path"), maxOperands: -1}
	return &spec{short: "V", long: words("version list"), sub: map[string]*spec{
		"test": build, "build": build, "check": build, "bench": build, "clippy": build, "doc": build,
		"tree":     {short: "ei", shortVal: "p", long: words("duplicates no-dedupe"), longVal: words("package depth invert edges prefix")},
		"metadata": {long: words("no-deps offline"), longVal: words("format-version")},
		"fmt":      {long: words("check all"), maxOperands: -1, then: func(p parsed) string { return requires(p, "cargo fmt", "--check") }},
	}}
}()

// testWhy refuses test's -v, which evaluates an array subscript (and so
// may run a command substitution hidden in a variable's name).
func testWhy(args []arg) string {
	for _, a := range args {
		if a.lit && a.v == "-v" {
			return "test -v evaluates a subscript Paige cannot check; use [[ -n ${x+set} ]]"
		}
	}
	return ""
}

// requires returns why p lacks the option that makes the command read.
func requires(p parsed, what, option string) string {
	if p.has(option) {
		return ""
	}
	return what + " rewrites files without " + option
}

func prettierThen(p parsed) string {
	if p.has("-c", "--check", "-l", "--list-different") {
		return ""
	}
	return "prettier rewrites files without --check"
}

func tscThen(p parsed) string {
	if p.has("--noEmit", "--version", "--help") {
		return ""
	}
	return "tsc writes compiled files (use --noEmit)"
}

func treeThen(p parsed) string {
	if p.has("-R") {
		return "tree -R writes an index file in each directory"
	}
	return ""
}

func xxdThen(p parsed) string {
	if p.has("-r") {
		return "xxd -r writes binary data; use xxd to read"
	}
	return ""
}

// dateThen allows a +FORMAT operand only: another would set the clock.
func dateThen(p parsed) string {
	for _, o := range p.operands {
		if !o.lit || len(o.v) == 0 || o.v[0] != '+' {
			return "date with an operand other than +FORMAT sets the clock"
		}
	}
	return ""
}

// isCheckTarget reports whether a make target or package script is one
// that checks or builds rather than rewrites (fmt, fix, generate).
func isCheckTarget(t string) bool {
	switch t {
	case "test", "check", "lint", "vet", "build", "typecheck", "all":
		return true
	}
	return len(t) > 4 && t[:4] == "test"
}

// makeThen allows the check targets alone: a VAR=value operand overrides
// the makefile (SHELL=…), another target may rewrite files.
func makeThen(p parsed) string {
	for _, o := range p.operands {
		if !o.lit || !isCheckTarget(o.v) {
			return "make " + o.v + " is not a target Paige knows to only check (test, check, lint, vet, build, typecheck, all)"
		}
	}
	return ""
}

func runScriptThen(p parsed) string {
	if len(p.operands) > 0 && p.operands[0].lit && isCheckTarget(p.operands[0].v) {
		return ""
	}
	return "only the test, check, lint, vet, build and typecheck scripts are known to only check"
}
