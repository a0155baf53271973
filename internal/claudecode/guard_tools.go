package claudecode

import (
	"regexp"
	"strings"
)

// The checks of the programs whose options and subcommands need more than
// a list: git, go, find and sed.

// Options shared by git's history and diff commands (diff, log, show,
// stash show, …). Not among them: --output and -O (write a file or open a
// pager), --ext-diff (runs a program), --textconv, --exec.
var (
	gitLogShort    = "0123456789pusSwbzRaMCBDcmtq"
	gitLogShortVal = "nUGLl"
	gitLogLong     = words("stat numstat shortstat name-only name-status oneline graph decorate no-decorate all patch cached staged " +
		"no-color color raw minimal patience histogram word-diff color-words follow reverse abbrev-commit no-abbrev-commit " +
		"no-patch ignore-all-space ignore-space-change ignore-blank-lines ignore-cr-at-eol merges no-merges first-parent " +
		"summary compact-summary exit-code quiet check no-ext-diff full-diff left-right cherry-pick cherry-mark boundary " +
		"date-order topo-order author-date-order relative-date full-index binary no-renames find-renames find-copies " +
		"text branches tags remotes notes no-notes show-signature source parents children simplify-merges ancestry-path " +
		"walk-reflogs invert-grep regexp-ignore-case all-match extended-regexp fixed-strings perl-regexp no-walk count " +
		"pretty dirstat cumulative mailmap use-mailmap no-prefix no-index stdin shortstat merge-base irreversible-delete")
	gitLogLongVal = words("pretty format date since after until before author committer grep max-count skip unified stat " +
		"dirstat decorate color word-diff diff-filter find-renames find-copies abbrev relative src-prefix dst-prefix " +
		"submodule ignore-submodules inter-hunk-context max-parents min-parents encoding glob exclude branches tags " +
		"remotes diff-algorithm anchored word-diff-regex stat-width stat-count rename-limit")
)

func gitLog() *spec {
	return &spec{short: gitLogShort, shortVal: gitLogShortVal, long: gitLogLong, longVal: gitLogLongVal, maxOperands: -1}
}

// gitSpec is git with the global options that only read and the
// subcommands that only read. -c, --exec-path, --git-dir, --work-tree and
// --config-env are not allowed: they can make a reading command run a
// program (core.pager, core.fsmonitor, diff.external, alias.*).
var gitSpec = &spec{
	short: "P", shortVal: "C",
	long: words("no-pager no-optional-locks literal-pathspecs no-replace-objects version"),
	sub: map[string]*spec{
		"status": {short: "sbvz", shortVal: "u", long: words("short branch long show-stash ahead-behind no-ahead-behind renames no-renames null verbose"),
			longVal: words("porcelain untracked-files ignore-submodules ignored find-renames column"), maxOperands: -1},
		"diff": gitLog(), "log": gitLog(), "show": gitLog(), "whatchanged": gitLog(), "shortlog": gitLog(), "rev-list": gitLog(),
		"blame": {short: "lLtsewfnpcMC", shortVal: "L", long: words("line-porcelain porcelain incremental root show-stats show-name show-number show-email"),
			longVal: words("date since contents ignore-rev"), maxOperands: -1},
		"annotate": {short: "lLtsewfnpcMC", shortVal: "L", longVal: words("date since"), maxOperands: -1},
		"grep": {short: "0123456789nilLcwvEFPhHoqraIzW", shortVal: "efABCm",
			long: words("line-number ignore-case files-with-matches files-without-match count word-regexp invert-match extended-regexp " +
				"fixed-strings perl-regexp basic-regexp untracked cached no-index heading break show-function function-context all-match " +
				"and or not full-name exclude-standard no-exclude-standard recurse-submodules text null only-matching quiet column"),
			longVal: words("max-depth threads context after-context before-context max-count"), maxOperands: -1},
		"rev-parse": {short: "q", long: words("show-toplevel abbrev-ref short verify git-dir is-inside-work-tree is-inside-git-dir show-prefix " +
			"show-cdup symbolic symbolic-full-name all branches tags remotes git-common-dir absolute-git-dir quiet is-bare-repository " +
			"show-superproject-working-tree show-object-format"), longVal: words("short abbrev-ref"), maxOperands: -1},
		"ls-files": {short: "cdmostuizkv", long: words("cached deleted modified others ignored stage unmerged killed exclude-standard full-name " +
			"directory no-empty-directory error-unmatch eol debug recurse-submodules"), longVal: words("exclude exclude-from format"), maxOperands: -1},
		"ls-tree":      {short: "rdtlz", long: words("name-only name-status full-name full-tree long object-only"), longVal: words("format abbrev"), maxOperands: -1},
		"cat-file":     {short: "tpse", maxOperands: 2},
		"describe":     {long: words("tags all always long dirty contains exact-match first-parent"), longVal: words("abbrev match exclude candidates dirty"), maxOperands: -1},
		"merge-base":   {short: "a", long: words("all is-ancestor octopus independent fork-point"), maxOperands: -1},
		"name-rev":     {long: words("name-only tags all always"), longVal: words("refs exclude"), maxOperands: -1},
		"for-each-ref": {longVal: words("format sort count points-at contains no-contains merged no-merged"), maxOperands: -1},
		"show-ref":     {short: "qsd", long: words("heads tags verify head dereference quiet hash"), longVal: words("hash abbrev"), maxOperands: -1},
		"branch": {short: "avrl", long: words("all remotes list verbose show-current no-color color"),
			longVal: words("contains no-contains merged no-merged points-at sort format color column"), maxOperands: -1, then: listsOnly("git branch")},
		"tag":           {short: "ln", long: words("list"), longVal: words("contains no-contains sort points-at format merged no-merged"), maxOperands: -1, then: listsOnly("git tag")},
		"remote":        {short: "v", long: words("verbose"), sub: map[string]*spec{"show": {short: "n", maxOperands: -1}, "get-url": {long: words("push all"), maxOperands: 1}}},
		"stash":         {sub: map[string]*spec{"list": gitLog(), "show": gitLog()}, then: func(parsed) string { return "git stash saves and resets the work; use git stash list" }},
		"worktree":      {sub: map[string]*spec{"list": {long: words("porcelain verbose")}}, then: func(parsed) string { return "git worktree changes worktrees; use git worktree list" }},
		"reflog":        {short: gitLogShort, shortVal: gitLogShortVal, long: gitLogLong, longVal: gitLogLongVal, sub: map[string]*spec{"show": gitLog()}},
		"check-ignore":  {short: "vnqz", long: words("verbose non-matching quiet no-index stdin"), maxOperands: -1},
		"count-objects": {short: "vH", long: words("verbose human-readable")},
		"cherry":        {short: "v", maxOperands: 3},
		"var":           {short: "l", maxOperands: 1},
		"version":       {long: words("build-options")},
	},
}

// listsOnly allows operands (patterns) only when the command lists: a
// branch or tag name alone creates one.
func listsOnly(what string) func(parsed) string {
	return func(p parsed) string {
		if len(p.operands) == 0 || p.has("-l", "--list") || len(p.values("--contains", "--merged", "--no-merged", "--points-at")) > 0 {
			return ""
		}
		return what + " " + p.operands[0].v + " creates one; list with " + what + " --list"
	}
}

// goFlags are the go subcommands Paige allows and their flags (go's own
// flag syntax: -name, -name=value, -name value): bool lists the flags
// without a value, valued those with one.
var goFlags = map[string]struct{ bool, valued []string }{
	"test": {words("v race short cover benchmem failfast json x n a trimpath msan asan"),
		words("run skip count timeout bench benchtime cpu p parallel tags list shuffle covermode coverpkg vet mod C")},
	"vet":     {words("json x n"), words("tags mod C")},
	"build":   {words("v race trimpath a n x msan asan"), words("tags mod C o p")},
	"list":    {words("m json u deps test e find compiled versions retracted"), words("f tags mod C json")},
	"version": {words("m v json"), nil},
	"doc":     {words("all short u c src cmd"), nil},
	"env":     {words("json changed"), nil},
	"help":    {nil, nil},
}

// goWhy checks go's subcommand and flags. -o is allowed only to
// /dev/null, -mod only as readonly or vendor (mod rewrites go.mod); -exec,
// -toolexec, -vettool, -fuzz, -args, profiles, -overlay and the tool flags
// (-ldflags=-extld=… runs a program, -gcflags=-cpuprofile=… writes) are not.
func goWhy(args []arg) string {
	if len(args) == 0 {
		return ""
	}
	if !args[0].lit {
		return "go takes a subcommand known only at run time"
	}
	sub, rest := args[0].v, args[1:]
	if sub == "mod" {
		if len(rest) == 1 && rest[0].lit && (rest[0].v == "graph" || rest[0].v == "verify") ||
			len(rest) >= 1 && rest[0].lit && rest[0].v == "why" && allOperands(rest[1:]) {
			return ""
		}
		return "go mod changes go.mod or go.sum; go mod graph, why and verify only read"
	}
	f, ok := goFlags[sub]
	if !ok {
		return "go " + sub + " is not a go subcommand Paige knows to be read-only (test, vet, build, list, doc, env, version)"
	}
	for i := 0; i < len(rest); i++ {
		a := rest[i]
		if a.operand || a.lit && (a.v == "-" || a.v == "") {
			continue
		}
		if !a.lit {
			return "go " + sub + " takes an argument known only at run time where a flag could be"
		}
		name, value, hasValue := strings.Cut(strings.TrimLeft(a.v, "-"), "=")
		switch {
		case contains(f.bool, name):
		case contains(f.valued, name):
			if !hasValue {
				if i+1 >= len(rest) || !rest[i+1].lit {
					return "go " + sub + " -" + name + " lacks its value"
				}
				i++
				value = rest[i].v
			}
			if why := goValueWhy(sub, name, value); why != "" {
				return why
			}
		default:
			return "go " + sub + " -" + name + " is not a flag Paige knows to be read-only"
		}
	}
	return ""
}

func goValueWhy(sub, name, value string) string {
	switch {
	case name == "o" && value != "/dev/null":
		return "go " + sub + " -o writes a file (only -o /dev/null is allowed)"
	case name == "mod" && value != "readonly" && value != "vendor":
		return "go " + sub + " -mod=" + value + " may rewrite go.mod"
	}
	return ""
}

func allOperands(args []arg) bool {
	for _, a := range args {
		if !a.operand {
			return false
		}
	}
	return true
}

// findPrimaries are find's options, tests and actions that only read or
// print, with whether each takes a value. -exec, -execdir, -ok, -okdir,
// -delete, -fprint, -fprint0, -fprintf and -fls are not among them.
var findPrimaries = func() map[string]bool {
	m := map[string]bool{}
	for _, p := range words("-print -print0 -prune -quit -true -false -empty -readable -writable -executable -depth -xdev " +
		"-mount -follow -nouser -nogroup -ls -not -a -and -o -or ! ( ) , -noleaf -daystart -ignore_readdir_race -L -H -P") {
		m[p] = false
	}
	for _, p := range words("-name -iname -path -ipath -wholename -iwholename -regex -iregex -type -xtype -maxdepth -mindepth " +
		"-newer -anewer -cnewer -mtime -mmin -atime -amin -ctime -cmin -size -perm -user -group -uid -gid -links -inum " +
		"-samefile -lname -ilname -regextype -printf -used -newermt -newerct -newerat -newermm") {
		m[p] = true
	}
	return m
}()

// findWhy checks find's paths and expression against findPrimaries.
func findWhy(args []arg) string {
	for i := 0; i < len(args); i++ {
		a := args[i]
		if a.operand && !(a.lit && (a.v == "!" || a.v == "(" || a.v == ")" || a.v == ",")) {
			continue // a start path
		}
		if !a.lit {
			return "find takes an argument known only at run time where an action could be"
		}
		takes, ok := findPrimaries[a.v]
		if !ok {
			return "find " + a.v + " is not a test or action Paige knows to be read-only (find prints; read the files it lists)"
		}
		if takes {
			if i+1 >= len(args) {
				return "find " + a.v + " lacks its value"
			}
			i++
		}
	}
	return ""
}

// sedWriteCmd finds the w, W and e commands (and the w and e flags of s)
// in a sed script; it may refuse a script that only looks like one.
var sedWriteCmd = regexp.MustCompile(`(^|[;{}\n\d$!\s])[wWe](\s|;|$)|/[gpiImM0-9]*[we][gpiImM0-9]*(\s|;|}|$)`)

// sedThen checks sed's scripts (the -e values, else the first operand):
// they must be literal and hold no w, W or e command. -i and -f are not
// options the table allows.
func sedThen(p parsed) string {
	scripts := p.values("-e", "--expression")
	if len(scripts) == 0 {
		if len(p.operands) == 0 {
			return ""
		}
		if !p.operands[0].lit {
			return "the sed script is known only at run time"
		}
		scripts = []string{p.operands[0].v}
	}
	for _, s := range scripts {
		if sedWriteCmd.MatchString(s) {
			return "the sed script writes a file or runs a command (w, W, e)"
		}
	}
	return ""
}
