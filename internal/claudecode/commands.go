package claudecode

import (
	"path"
	"strings"
)

// writers are programs that change files whatever their arguments.
var writers = map[string]bool{
	"mv": true, "cp": true, "rm": true, "rmdir": true, "mkdir": true, "touch": true,
	"chmod": true, "chown": true, "chgrp": true, "ln": true, "install": true,
	"truncate": true, "shred": true, "unlink": true, "rsync": true, "patch": true,
}

// gitWriters are git subcommands that change the working tree, the index or
// the remote.
var gitWriters = map[string]bool{
	"add": true, "commit": true, "push": true, "rm": true, "mv": true, "restore": true,
	"checkout": true, "switch": true, "reset": true, "clean": true, "stash": true,
	"merge": true, "rebase": true, "cherry-pick": true, "revert": true, "apply": true,
	"am": true, "pull": true, "init": true, "clone": true,
}

// reserved are shell words that open a compound command; the command proper
// follows them.
var reserved = map[string]bool{
	"if": true, "then": true, "else": true, "elif": true, "do": true, "while": true,
	"until": true, "!": true, "{": true, "}": true, "time": true, "fi": true,
	"done": true, "esac": true,
}

// wrappers run the command given in their arguments; flags lists the flags
// that take a separate value.
var wrappers = map[string]string{
	"sudo": "-u -g -C -D -h -p -r -t -U", "env": "-u -C -S", "command": "", "builtin": "",
	"exec": "-a", "nice": "-n", "nohup": "", "timeout": "-s -k", "stdbuf": "-i -o -e",
	"xargs": "-I -n -P -L -d -E -s -a", "doas": "-u -C", "ionice": "-c -n -p", "time": "-f -o",
	"caffeinate": "", "chronic": "", "watch": "-n -d",
}

// argsWrite returns why the simple command args writes, or "".
func argsWrite(args []string, depth int) string {
	args = skipPrefix(args)
	if len(args) == 0 {
		return ""
	}
	prog := path.Base(args[0])
	rest := args[1:]
	if prog == "command" && len(rest) > 0 && (rest[0] == "-v" || rest[0] == "-V") {
		return "" // command -v looks a program up
	}
	if flags, ok := wrappers[prog]; ok {
		inner := skipFlags(rest, strings.Fields(flags))
		if prog == "timeout" && len(inner) > 0 { // timeout DURATION cmd
			inner = inner[1:]
		}
		return argsWrite(inner, depth)
	}
	switch prog {
	case "for", "case", "function", "select":
		return "" // loop headers; their bodies are separate commands
	case "bash", "sh", "zsh", "dash", "ksh", "fish":
		for i, a := range rest {
			if a == "-c" && i+1 < len(rest) {
				return shellWrites(rest[i+1], depth+1)
			}
		}
		return ""
	case "eval":
		return shellWrites(strings.Join(rest, " "), depth+1)
	case "git":
		return gitWrites(rest)
	case "sed", "perl", "ruby":
		for _, a := range rest {
			if a == "--in-place" || strings.HasPrefix(a, "--in-place=") ||
				(len(a) > 1 && a[0] == '-' && a[1] != '-' && strings.ContainsRune(a, 'i')) {
				return prog + " edits files in place (-i)"
			}
		}
	case "tee":
		for _, a := range rest {
			if !strings.HasPrefix(a, "-") && !safeTargets[a] {
				return "tee writes to " + quote(a)
			}
		}
	case "dd":
		for _, a := range rest {
			if strings.HasPrefix(a, "of=") && !safeTargets[a[3:]] {
				return "dd writes to " + quote(a[3:])
			}
		}
	case "find":
		return findWrites(rest, depth)
	}
	if writers[prog] {
		return prog + " changes files"
	}
	return ""
}

// skipPrefix drops variable assignments (FOO=bar cmd) and reserved words.
func skipPrefix(args []string) []string {
	for len(args) > 0 {
		a := args[0]
		if reserved[a] || isAssignment(a) {
			args = args[1:]
			continue
		}
		break
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

// gitWrites skips git's global options and checks the subcommand.
func gitWrites(args []string) string {
	for len(args) > 0 {
		a := args[0]
		switch {
		case a == "-C" || a == "-c" || a == "--git-dir" || a == "--work-tree" || a == "--namespace":
			if len(args) < 2 {
				return ""
			}
			args = args[2:]
		case strings.HasPrefix(a, "-"):
			args = args[1:]
		default:
			if a == "stash" && len(args) > 1 && (args[1] == "list" || args[1] == "show") {
				return ""
			}
			if gitWriters[a] {
				return "git " + a + " changes the repository"
			}
			return ""
		}
	}
	return ""
}

// findWrites flags -delete and checks the commands of -exec/-execdir/-ok.
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

func quote(s string) string { return `"` + s + `"` }
