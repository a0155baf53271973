package claudecode

import (
	"strings"

	"mvdan.cc/sh/v3/syntax"
)

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
