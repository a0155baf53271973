package claudecode

import (
	"fmt"
	"regexp"
	"strings"

	"mvdan.cc/sh/v3/syntax"
)

// The shell side of the read-only guard is an allowlist over the command
// line as mvdan.cc/sh/v3/syntax (the parser behind shfmt) parses it. Every
// node of the syntax tree is visited — pipelines, lists, subshells, blocks,
// if/for/while/case bodies, command and process substitutions, here-document
// bodies, arithmetic — and each must be one Paige knows cannot write or run
// a program of its choosing:
//
//   - a simple command whose program is in the table (guard_table.go) and
//     whose every option is one the table lists for it (guard_args.go);
//   - no assignment of any kind (VAR=x, export, declare, read, let,
//     ${x:=y}, arithmetic assignment): an environment variable can make a
//     reading program run another (GIT_EXTERNAL_DIFF, BASH_ENV, PAGER…);
//   - output redirections only to /dev/null, /dev/stdout or /dev/stderr, or
//     duplicating a descriptor (2>&1); never /dev/fd/N, which may be any
//     file the shell holds open;
//   - no function definitions, coprocesses, or parameter expansions that
//     evaluate their value ${x@P}.
//
// The first node that fails gives the reason to deny.

// walkLine returns why the bash command line s is not known to be
// read-only (the first reason found), or "" when every part of it is.
func walkLine(s string) string {
	f, err := syntax.NewParser(syntax.Variant(syntax.LangBash)).Parse(strings.NewReader(s), "")
	if err != nil {
		return "cannot parse it: " + err.Error()
	}
	why := ""
	syntax.Walk(f, func(n syntax.Node) bool {
		if why == "" {
			why = nodeWhy(n)
		}
		return why == ""
	})
	return why
}

// nodeWhy classifies one node of the tree; its children are visited after.
func nodeWhy(n syntax.Node) string {
	switch n := n.(type) {
	case *syntax.Stmt:
		if n.Coprocess || n.Disown {
			return "runs a coprocess"
		}
	case *syntax.Redirect:
		return redirectWhy(n)
	case *syntax.CallExpr:
		if len(n.Assigns) > 0 {
			return fmt.Sprintf("sets the variable %s (an environment variable can make a reading program run another)", n.Assigns[0].Name.Value)
		}
		return callWhy(n)
	case *syntax.DeclClause:
		return n.Variant.Value + " sets variables"
	case *syntax.LetClause:
		return "let sets variables"
	case *syntax.FuncDecl:
		return "defines a function"
	case *syntax.CoprocClause:
		return "runs a coprocess"
	case *syntax.ParamExp:
		return paramWhy(n)
	case *syntax.BinaryArithm:
		if isArithmAssign(n.Op.String()) {
			return "assigns a variable in arithmetic"
		}
	case *syntax.UnaryArithm:
		if n.Op == syntax.Inc || n.Op == syntax.Dec {
			return "assigns a variable in arithmetic"
		}
	case *syntax.ArithmExp:
		return arithmWordsWhy(n.X)
	case *syntax.ArithmCmd:
		return arithmWordsWhy(n.X)
	case *syntax.UnaryTest:
		if n.Op.String() == "-v" {
			return "[[ -v ]] evaluates an array subscript Paige cannot check"
		}
	}
	return ""
}

// isArithmAssign reports whether an arithmetic operator assigns (=, +=, …).
func isArithmAssign(op string) bool {
	return strings.HasSuffix(op, "=") && op != "==" && op != "!=" && op != "<=" && op != ">="
}

// arithmName matches a word arithmetic may use: a number or a variable name.
var arithmName = regexp.MustCompile(`^[A-Za-z0-9_#]+$`)

// arithmWordsWhy refuses quoted words and subscripts in arithmetic: bash
// evaluates them again, and an array subscript may run a command.
func arithmWordsWhy(x syntax.ArithmExpr) string {
	why := ""
	syntax.Walk(x, func(n syntax.Node) bool {
		w, ok := n.(*syntax.Word)
		if !ok || why != "" {
			return why == ""
		}
		for _, p := range w.Parts {
			switch p := p.(type) {
			case *syntax.Lit:
				if !arithmName.MatchString(p.Value) {
					why = "arithmetic with " + quote(p.Value) + " Paige cannot check"
				}
			case *syntax.ParamExp:
				if p.Index != nil {
					why = "arithmetic with an array subscript Paige cannot check"
				}
			default:
				why = "arithmetic over a quoted or substituted word Paige cannot check"
			}
		}
		return why == ""
	})
	return why
}

// paramWhy refuses the parameter expansions that assign (${x=y}, ${x:=y})
// or evaluate the value again (${x@P} expands it as a prompt).
func paramWhy(p *syntax.ParamExp) string {
	if p.Exp == nil {
		return ""
	}
	switch p.Exp.Op {
	case syntax.AssignUnset, syntax.AssignUnsetOrNull:
		return "${…=…} assigns a variable"
	case syntax.OtherParamOps:
		return "${…@…} transforms a value in a way Paige cannot check"
	}
	return ""
}

// safeTargets are the files an output redirection may name: they reach no
// file of the project. /dev/fd/N is not one: it is whatever the shell has
// open as N.
var safeTargets = map[string]bool{"/dev/null": true, "/dev/stdout": true, "/dev/stderr": true}

// redirectWhy returns why r may write a file, or "" for input
// redirections, here-documents, here-strings, descriptor duplication and
// the safe targets.
func redirectWhy(r *syntax.Redirect) string {
	target, lit := literal(r.Word)
	switch r.Op {
	case syntax.RdrIn, syntax.DplIn, syntax.Hdoc, syntax.DashHdoc, syntax.WordHdoc:
		return ""
	case syntax.DplOut:
		if lit && (isDigits(target) || target == "-") {
			return "" // 2>&1, >&2, >&-
		}
	}
	if lit && safeTargets[target] {
		return ""
	}
	if !lit {
		return fmt.Sprintf("redirects output with %s to a file named only at run time", r.Op)
	}
	return fmt.Sprintf("redirects output to %q with %s (only /dev/null, /dev/stdout and /dev/stderr may be written)", target, r.Op)
}

// callWhy checks one simple command: a literal program name in the table,
// then its arguments against the program's options.
func callWhy(c *syntax.CallExpr) string {
	if len(c.Args) == 0 {
		return ""
	}
	name, ok := literal(c.Args[0])
	if !ok {
		return "runs a command whose name is known only at run time"
	}
	args := make([]arg, 0, len(c.Args)-1)
	for _, w := range c.Args[1:] {
		args = append(args, wordArg(w))
	}
	return commandWhy(name, args)
}

// arg is one argument of a command: its value when literal, and whether
// it may be read as an operand although part of it is known only at run
// time (its leading literal text is not empty and does not start with
// "-", so no expansion of it can be an option).
type arg struct {
	v       string
	lit     bool
	operand bool
}

// wordArg classifies w. An unquoted literal with glob or brace characters
// is not literal: the shell expands it.
func wordArg(w *syntax.Word) arg {
	if v, ok := literal(w); ok && !expands(w) {
		return arg{v: v, lit: true, operand: !strings.HasPrefix(v, "-")}
	}
	prefix := leadingLiteral(w)
	return arg{v: prefix, operand: prefix != "" && !strings.HasPrefix(prefix, "-")}
}

// expands reports whether an unquoted part of w holds a glob or brace
// character, or a tilde, that the shell would expand.
func expands(w *syntax.Word) bool {
	for i, p := range w.Parts {
		if l, ok := p.(*syntax.Lit); ok && (strings.ContainsAny(l.Value, "*?[{") || i == 0 && strings.HasPrefix(l.Value, "~")) {
			return true
		}
		if _, ok := p.(*syntax.ExtGlob); ok {
			return true
		}
	}
	return false
}

// leadingLiteral is the text of w before its first expansion or glob.
func leadingLiteral(w *syntax.Word) string {
	var b strings.Builder
	for _, p := range w.Parts {
		switch p := p.(type) {
		case *syntax.Lit:
			v := p.Value
			if i := strings.IndexAny(v, "*?[{~\\"); i >= 0 {
				return b.String() + v[:i]
			}
			b.WriteString(v)
		case *syntax.SglQuoted:
			if p.Dollar {
				return b.String()
			}
			b.WriteString(p.Value)
		case *syntax.DblQuoted:
			for _, q := range p.Parts {
				l, ok := q.(*syntax.Lit)
				if !ok || p.Dollar {
					return b.String()
				}
				b.WriteString(l.Value)
			}
		default:
			return b.String()
		}
	}
	return b.String()
}
