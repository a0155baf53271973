package claudecode

import (
	"fmt"
	"strings"

	"mvdan.cc/sh/v3/syntax"
)

// The shell side of the read-only guard parses a command line with
// mvdan.cc/sh/v3/syntax (the parser behind shfmt) rather than a lexer of our
// own, then walks every statement it contains: pipelines, lists, subshells,
// blocks, if/for/while/case bodies, function bodies, command and process
// substitutions and here-document bodies. Each redirection and each simple
// command is classified; the first one that writes or that cannot be
// classified gives the reason to deny.

// shellWrites returns why the bash command line s may write (the first
// reason found), or "" when every command in it is known to read. A line
// that does not parse, or that is nested more than [maxDepth] levels of
// `sh -c`/`eval`, is refused too.
func shellWrites(s string, depth int) string {
	if depth > maxDepth {
		return "nested too deeply to check"
	}
	f, err := syntax.NewParser(syntax.Variant(syntax.LangBash)).Parse(strings.NewReader(s), "")
	if err != nil {
		return "cannot parse it: " + err.Error()
	}
	why := ""
	syntax.Walk(f, func(n syntax.Node) bool {
		if why != "" {
			return false
		}
		switch n := n.(type) {
		case *syntax.Redirect:
			why = redirectWrites(n)
		case *syntax.CallExpr:
			why = callWrites(n, depth)
		}
		return why == ""
	})
	return why
}

// safeTargets are files a redirection may write to without touching the project.
var safeTargets = map[string]bool{
	"/dev/null": true, "/dev/stdout": true, "/dev/stderr": true, "/dev/tty": true,
}

// isSafeTarget reports whether writing to the file named t leaves the
// project alone.
func isSafeTarget(t string) bool { return safeTargets[t] || strings.HasPrefix(t, "/dev/fd/") }

// redirectWrites returns why r writes to a file, or "" for input
// redirections, here-documents, fd duplication and the safe targets.
func redirectWrites(r *syntax.Redirect) string {
	target, lit := literal(r.Word)
	switch r.Op {
	case syntax.RdrIn, syntax.DplIn, syntax.Hdoc, syntax.DashHdoc, syntax.WordHdoc:
		return ""
	case syntax.DplOut:
		if lit && (isDigits(target) || target == "-") {
			return "" // fd duplication such as 2>&1
		}
	}
	if lit && isSafeTarget(target) {
		return ""
	}
	if !lit {
		return fmt.Sprintf("redirects output with %s to a file named only at run time", r.Op)
	}
	return fmt.Sprintf("redirects output to %q with %s", target, r.Op)
}

// callWrites classifies one simple command. Its name and, unless the
// program reads whatever its arguments, every argument must be literal.
func callWrites(c *syntax.CallExpr, depth int) string {
	if len(c.Args) == 0 {
		return "" // assignments only; their substitutions are walked separately
	}
	args := make([]string, len(c.Args))
	allLit := true
	for i, w := range c.Args {
		v, ok := literal(w)
		if i == 0 && !ok {
			return "runs a command whose name is known only at run time"
		}
		args[i], allLit = v, allLit && ok
	}
	if !allLit && !pureReaders[progName(args[0])] {
		return progName(args[0]) + " takes an argument known only at run time"
	}
	return argsWrite(args, depth)
}

// literal returns the value of w after quote removal when it has no
// expansion (parameter, command, arithmetic, $'…'); ok is false otherwise.
// A nil w is not literal.
func literal(w *syntax.Word) (v string, ok bool) {
	if w == nil {
		return "", false
	}
	var b strings.Builder
	for _, p := range w.Parts {
		switch p := p.(type) {
		case *syntax.Lit:
			b.WriteString(unescape(p.Value, false))
		case *syntax.SglQuoted:
			if p.Dollar {
				return "", false
			}
			b.WriteString(p.Value)
		case *syntax.DblQuoted:
			if p.Dollar {
				return "", false
			}
			for _, q := range p.Parts {
				l, isLit := q.(*syntax.Lit)
				if !isLit {
					return "", false
				}
				b.WriteString(unescape(l.Value, true))
			}
		default:
			return "", false
		}
	}
	return b.String(), true
}

// unescape removes bash's backslash quoting from an unquoted literal, or,
// inDouble, from a literal inside double quotes (where only \$ \` \" \\ and
// backslash-newline are escapes).
func unescape(s string, inDouble bool) string {
	if !strings.Contains(s, `\`) {
		return s
	}
	var b strings.Builder
	for i := 0; i < len(s); i++ {
		if s[i] != '\\' || i+1 == len(s) {
			b.WriteByte(s[i])
			continue
		}
		n := s[i+1]
		switch {
		case n == '\n':
		case !inDouble || strings.IndexByte("$`\"\\", n) >= 0:
			b.WriteByte(n)
		default:
			b.WriteString(s[i : i+2])
		}
		i++
	}
	return b.String()
}

// simpleWords returns the words of cmd when it is exactly one simple
// command with literal words and nothing else (no redirection, list,
// pipeline or expansion); ok is false otherwise.
func simpleWords(cmd string) (words []string, ok bool) {
	f, err := syntax.NewParser(syntax.Variant(syntax.LangBash)).Parse(strings.NewReader(cmd), "")
	if err != nil || len(f.Stmts) != 1 {
		return nil, false
	}
	st := f.Stmts[0]
	call, isCall := st.Cmd.(*syntax.CallExpr)
	if !isCall || len(st.Redirs) > 0 || st.Negated || st.Background || st.Coprocess || len(call.Assigns) > 0 {
		return nil, false
	}
	for _, w := range call.Args {
		v, lit := literal(w)
		if !lit {
			return nil, false
		}
		words = append(words, v)
	}
	return words, true
}

func isDigits(s string) bool {
	if s == "" {
		return false
	}
	for i := 0; i < len(s); i++ {
		if s[i] < '0' || s[i] > '9' {
			return false
		}
	}
	return true
}
