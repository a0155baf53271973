package claudecode

import (
	"path"
	"strings"
)

// The classifier fails closed: a program is allowed only when it is listed
// here, either as a pure reader (it cannot write whatever its arguments) or
// with a checker that reads its arguments and names the ones that write.
// Anything else is refused with "cannot tell whether X writes".

// pureReaders cannot change a file whatever their arguments, so they may
// take arguments known only at run time and may run under xargs.
var pureReaders = setOf(
	// shell builtins that read or only change the shell's own state
	"cd", "pushd", "popd", "dirs", "true", "false", ":", "test", "[", "echo", "printf",
	"pwd", "type", "which", "whereis", "read", "exit", "return", "shift", "set", "shopt",
	"unset", "wait", "sleep", "local", "export", "declare", "typeset", "readonly", "let",
	// coreutils and friends that only print
	"ls", "cat", "head", "tail", "wc", "grep", "egrep", "fgrep", "diff", "cmp", "comm",
	"file", "stat", "du", "df", "basename", "dirname", "realpath", "readlink", "cut", "tr",
	"nl", "od", "hexdump", "strings", "less", "more", "column", "fold", "fmt", "paste",
	"join", "rev", "tac", "expand", "unexpand", "seq", "id", "whoami", "uname", "printenv",
	"locale", "nproc", "free", "uptime", "ps", "pgrep", "jq", "sha256sum", "sha1sum",
	"md5sum", "sha512sum", "cksum", "base64", "zcat", "man", "help", "staticcheck",
	"pytest", "ag", "lsof",
)

// checker returns, for a program whose effect depends on its arguments,
// the function that says why a given argument list writes ("" when it
// reads), or nil. Checkers see the arguments after the program name, all
// literal. (A switch rather than a map: the wrappers' checkers call
// argsWrite, which calls this.)
func checker(prog string) func(args []string, depth int) string {
	switch prog {
	case "git":
		return gitWrites
	case "go":
		return goWrites
	case "gofmt":
		return gofmtWrites
	case "sed":
		return sedWrites
	case "awk", "gawk", "mawk":
		return awkWrites
	case "find":
		return findWrites
	case "xargs":
		return xargsWrites
	case "tee":
		return teeWrites
	case "dd":
		return ddWrites
	case "sort":
		return sortWrites
	case "uniq", "xxd":
		return outputOperandWrites(prog)
	case "curl":
		return curlWrites
	case "npm", "pnpm", "yarn":
		return npmWrites
	case "make":
		return makeWrites
	case "cargo":
		return cargoWrites
	case "rg":
		return flagWrites("--pre")
	case "tree":
		return flagWrites("-o")
	case "date":
		return flagWrites("-s", "--set")
	case "yq":
		return flagWrites("-i", "--inplace")
	case "eslint", "golangci-lint":
		return flagWrites("--fix")
	case "prettier":
		return flagWrites("--write", "-w")
	case "tsc":
		return tscWrites
	case "python", "python3":
		return pythonWrites
	case "node", "perl", "ruby":
		return versionOnly
	case "bash", "sh", "zsh", "dash", "ksh":
		return shellCWrites
	case "eval":
		return func(a []string, d int) string { return shellWrites(strings.Join(a, " "), d+1) }
	case "watch":
		return watchWrites
	case "command":
		return commandWrites
	case "time":
		return timeWrites
	case "timeout":
		return timeoutWrites
	case "env":
		return envWrites
	case "sudo":
		return wrapper("-u", "-g", "-C", "-D", "-h", "-p", "-r", "-t", "-U")
	case "doas":
		return wrapper("-u", "-C")
	case "exec":
		return wrapper("-a")
	case "nice":
		return wrapper("-n")
	case "stdbuf":
		return wrapper("-i", "-o", "-e")
	case "ionice":
		return wrapper("-c", "-n", "-p")
	case "builtin", "nohup":
		return wrapper()
	}
	return nil
}

// writers are programs that change files whatever their arguments, and
// runners the builtins that run code the guard cannot see; both get a
// clearer reason than an unknown program.
var (
	writers = setOf("mv", "cp", "rm", "rmdir", "mkdir", "touch", "chmod", "chown", "chgrp",
		"ln", "install", "truncate", "shred", "unlink", "rsync", "patch")
	runners = setOf("source", ".", "alias", "trap")
)

// argsWrite returns why the simple command args (literal, program first)
// may write, or "".
func argsWrite(args []string, depth int) string {
	if len(args) == 0 {
		return ""
	}
	prog, rest := progName(args[0]), args[1:]
	switch {
	case pureReaders[prog]:
		return ""
	case checker(prog) != nil:
		return checker(prog)(rest, depth)
	case writers[prog]:
		return prog + " changes files"
	case runners[prog]:
		return prog + " runs commands Paige cannot read"
	}
	return "cannot tell whether " + quote(prog) + " writes"
}

// progName is the program's file name: /bin/rm runs rm.
func progName(p string) string {
	if strings.Contains(p, "/") {
		return path.Base(p)
	}
	return p
}

// wrapper returns the checker of a program that runs the command in its
// arguments after its own flags (valued lists the flags that take a
// separate value).
func wrapper(valued ...string) func([]string, int) string {
	return func(args []string, depth int) string {
		return argsWrite(skipFlags(args, valued), depth)
	}
}

func envWrites(args []string, depth int) string {
	if hasFlag(args, "-S", "--split-string") {
		return "env -S runs a command line Paige does not parse"
	}
	return wrapper("-u", "-C")(args, depth)
}

func commandWrites(args []string, depth int) string {
	if len(args) > 0 && (args[0] == "-v" || args[0] == "-V") {
		return "" // command -v looks a program up
	}
	return wrapper()(args, depth)
}

func timeWrites(args []string, depth int) string {
	if hasFlag(args, "-o", "--output", "-a", "--append") {
		return "time -o writes its report to a file"
	}
	return wrapper("-f")(args, depth)
}

func timeoutWrites(args []string, depth int) string {
	inner := skipFlags(args, []string{"-s", "-k"})
	if len(inner) > 0 { // timeout DURATION COMMAND
		inner = inner[1:]
	}
	return argsWrite(inner, depth)
}

// shellCWrites checks `bash -c STRING`: the string is parsed like a command
// line. A shell reading a script file or its input is refused.
func shellCWrites(args []string, depth int) string {
	for i, a := range args {
		if strings.HasPrefix(a, "-") && !strings.HasPrefix(a, "--") && strings.Contains(a, "c") {
			if i+1 < len(args) {
				return shellWrites(args[i+1], depth+1)
			}
			break
		}
		if a == "--version" {
			return ""
		}
	}
	return "a shell runs a script Paige cannot read"
}

func watchWrites(args []string, depth int) string {
	inner := skipFlags(args, []string{"-n", "-d", "--interval"})
	return shellWrites(strings.Join(inner, " "), depth+1)
}

// xargsWrites allows xargs only around a pure reader: the arguments it adds
// come from its input, so they could make any other program write.
func xargsWrites(args []string, _ int) string {
	inner := skipFlags(args, []string{"-I", "-n", "-P", "-L", "-d", "-E", "-s", "-a"})
	if len(inner) == 0 || pureReaders[progName(inner[0])] {
		return ""
	}
	return "xargs runs " + quote(progName(inner[0])) + " with arguments from its input"
}

// skipFlags drops a wrapper's leading flags (and the values of valued ones)
// and env-style assignments, returning the wrapped command.
func skipFlags(args []string, valued []string) []string {
	for len(args) > 0 {
		a := args[0]
		switch {
		case a == "--":
			return args[1:]
		case strings.HasPrefix(a, "-") && len(a) > 1:
			args = args[1:]
			for _, v := range valued {
				if a == v && len(args) > 0 {
					args = args[1:]
				}
			}
		case isAssignment(a):
			args = args[1:]
		default:
			return args
		}
	}
	return args
}

func isAssignment(a string) bool {
	eq := strings.IndexByte(a, '=')
	if eq <= 0 {
		return false
	}
	for i := 0; i < eq; i++ {
		c := a[i]
		if !(c == '_' || c >= 'a' && c <= 'z' || c >= 'A' && c <= 'Z' || i > 0 && c >= '0' && c <= '9') {
			return false
		}
	}
	return true
}

// hasFlag reports whether args hold one of flags, alone or as --flag=value.
func hasFlag(args []string, flags ...string) bool {
	for _, a := range args {
		for _, f := range flags {
			if a == f || strings.HasPrefix(f, "--") && strings.HasPrefix(a, f+"=") {
				return true
			}
		}
	}
	return false
}

// hasShort reports whether a cluster of short flags in args (-sSLo) holds
// one of the letters.
func hasShort(args []string, letters string) bool {
	for _, a := range args {
		if len(a) > 1 && a[0] == '-' && a[1] != '-' && strings.ContainsAny(a[1:], letters) {
			return true
		}
	}
	return false
}

// positional returns the arguments that are not flags.
func positional(args []string) []string {
	var out []string
	for _, a := range args {
		if !strings.HasPrefix(a, "-") || a == "-" {
			out = append(out, a)
		}
	}
	return out
}

func setOf(names ...string) map[string]bool {
	m := make(map[string]bool, len(names))
	for _, n := range names {
		m[n] = true
	}
	return m
}

func quote(s string) string { return `"` + s + `"` }
