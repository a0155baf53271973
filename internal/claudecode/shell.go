package claudecode

import "strings"

// tokKind tells words from operators in a lexed shell command.
type tokKind int

const (
	tokWord  tokKind = iota
	tokOp            // control operator: && || ; & | |& ( ) newline
	tokRedir         // redirection operator, fd prefix included: > >> 2> &> <<
)

// token is one lexed shell token. For words, val is the value after quote
// removal; for operators it is the operator text.
type token struct {
	kind tokKind
	val  string
}

// lexed is the result of lexing one command string: its tokens and the
// bodies of every command substitution ($(…), `…`, <(…), >(…)) found in it,
// which are commands in their own right.
type lexed struct {
	toks []token
	subs []string
}

// lexer splits a bash command line into tokens the way bash does for the
// purposes of finding commands and redirections: quotes, escapes, comments,
// command substitutions, here-documents and fd-prefixed redirections. It
// never fails: unterminated quotes run to the end of the input.
type lexer struct {
	s       string
	i       int
	out     lexed
	word    strings.Builder
	inWord  bool
	quoted  bool     // the current word had a quoted part
	wantDoc bool     // the next word is a here-document delimiter
	docs    []string // pending here-document delimiters ("-" prefix: <<-)
	docDash bool
}

func lex(s string) lexed {
	l := &lexer{s: s}
	l.run()
	return l.out
}

func (l *lexer) run() {
	for l.i < len(l.s) {
		c := l.s[l.i]
		switch {
		case c == ' ' || c == '\t' || c == '\r':
			l.endWord()
			l.i++
		case c == '\n':
			l.endWord()
			l.emit(tokOp, "\n")
			l.i++
			l.skipHereDocs()
		case c == '\\':
			l.escape()
		case c == '#' && !l.inWord:
			for l.i < len(l.s) && l.s[l.i] != '\n' {
				l.i++
			}
		case c == '\'':
			l.singleQuoted()
		case c == '"':
			l.inWord, l.quoted = true, true
			l.doubleQuoted()
		case c == '`':
			l.inWord = true
			l.backtick()
		case c == '$':
			l.inWord = true
			l.dollar()
		case (c == '<' || c == '>') && l.at(1) == '(' && !l.inWord:
			l.inWord = true
			body, end := matchParen(l.s, l.i+2)
			l.out.subs = append(l.out.subs, body)
			l.word.WriteString("/dev/fd/63") // what bash substitutes
			l.i = end
		case c == '<' || c == '>' || (c == '&' && l.at(1) == '>'):
			l.redirection()
		case c == '(' && l.at(1) == '(' && !l.inWord: // (( arithmetic )): no commands, > compares
			l.endWord()
			_, end := matchParen(l.s, l.i+2)
			l.emit(tokWord, "((")
			l.i = min(end+1, len(l.s)) // past the second ")"
		case c == '&' || c == '|' || c == ';' || c == '(' || c == ')':
			l.endWord()
			l.control()
		default:
			l.inWord = true
			l.word.WriteByte(c)
			l.i++
		}
	}
	l.endWord()
}

// escape consumes a backslash and the byte it quotes; backslash-newline
// is a line continuation.
func (l *lexer) escape() {
	if l.at(1) != '\n' {
		l.inWord = true
		if l.i+1 < len(l.s) {
			l.word.WriteByte(l.s[l.i+1])
		}
	}
	l.i += 2
}

// singleQuoted consumes a '…' string starting at l.i.
func (l *lexer) singleQuoted() {
	l.inWord, l.quoted = true, true
	end := strings.IndexByte(l.s[l.i+1:], '\'')
	if end < 0 {
		l.word.WriteString(l.s[l.i+1:])
		l.i = len(l.s)
		return
	}
	l.word.WriteString(l.s[l.i+1 : l.i+1+end])
	l.i += end + 2
}

// at returns the byte off positions ahead, or 0 past the end.
func (l *lexer) at(off int) byte {
	if l.i+off < len(l.s) {
		return l.s[l.i+off]
	}
	return 0
}

func (l *lexer) emit(k tokKind, v string) { l.out.toks = append(l.out.toks, token{k, v}) }

func (l *lexer) endWord() {
	if !l.inWord {
		return
	}
	w := l.word.String()
	l.word.Reset()
	l.inWord, l.quoted = false, false
	l.emit(tokWord, w)
	if l.wantDoc {
		l.wantDoc = false
		if l.docDash {
			w = "-" + w
		}
		l.docs = append(l.docs, w)
	}
}

// control lexes & && | || |& ; ;; ( ).
func (l *lexer) control() {
	c := l.s[l.i]
	two := string([]byte{c, l.at(1)})
	switch two {
	case "&&", "||", "|&", ";;":
		l.emit(tokOp, two)
		l.i += 2
		return
	}
	l.emit(tokOp, string(c))
	l.i++
}

// redirection lexes a redirection operator. A word made only of digits right
// before it is its fd (2>), not an argument.
func (l *lexer) redirection() {
	fd := ""
	if l.inWord && !l.quoted && isDigits(l.word.String()) {
		fd = l.word.String()
		l.word.Reset()
		l.inWord = false
	}
	l.endWord()
	ops := []string{"&>>", "&>", "<<<", "<<-", "<<", "<>", "<&", ">>", ">|", ">&", "<", ">"}
	for _, op := range ops {
		if strings.HasPrefix(l.s[l.i:], op) {
			l.i += len(op)
			l.emit(tokRedir, fd+op)
			if op == "<<" || op == "<<-" {
				l.wantDoc, l.docDash = true, op == "<<-"
			}
			return
		}
	}
}

// skipHereDocs skips the bodies of the here-documents opened on the line
// that just ended, so their text is not taken for commands.
func (l *lexer) skipHereDocs() {
	for _, d := range l.docs {
		dash := strings.HasPrefix(d, "-")
		delim := strings.TrimPrefix(d, "-")
		for l.i < len(l.s) {
			end := strings.IndexByte(l.s[l.i:], '\n')
			line := l.s[l.i:]
			if end >= 0 {
				line = l.s[l.i : l.i+end]
				l.i += end + 1
			} else {
				l.i = len(l.s)
			}
			if dash {
				line = strings.TrimLeft(line, "\t")
			}
			if line == delim {
				break
			}
		}
	}
	l.docs = nil
}

// doubleQuoted consumes a "…" string starting at l.i.
func (l *lexer) doubleQuoted() {
	l.i++
	for l.i < len(l.s) {
		c := l.s[l.i]
		switch c {
		case '"':
			l.i++
			return
		case '\\':
			if n := l.at(1); n == '"' || n == '\\' || n == '$' || n == '`' {
				l.word.WriteByte(n)
				l.i += 2
			} else if n == '\n' {
				l.i += 2
			} else {
				l.word.WriteByte(c)
				l.i++
			}
		case '`':
			l.backtick()
		case '$':
			l.dollar()
		default:
			l.word.WriteByte(c)
			l.i++
		}
	}
}

// backtick consumes a `…` command substitution starting at l.i.
func (l *lexer) backtick() {
	var body strings.Builder
	l.i++
	for l.i < len(l.s) && l.s[l.i] != '`' {
		if l.s[l.i] == '\\' && l.i+1 < len(l.s) {
			l.i++
		}
		body.WriteByte(l.s[l.i])
		l.i++
	}
	l.i++
	l.out.subs = append(l.out.subs, body.String())
	l.word.WriteString("$SUBST")
}

// dollar consumes $(…), $((…)), ${…} or a plain $ starting at l.i.
func (l *lexer) dollar() {
	switch {
	case l.at(1) == '(' && l.at(2) == '(': // arithmetic: no commands
		_, end := matchParen(l.s, l.i+2)
		l.word.WriteString(l.s[l.i:min(end, len(l.s))])
		l.i = end
	case l.at(1) == '(':
		body, end := matchParen(l.s, l.i+2)
		l.out.subs = append(l.out.subs, body)
		l.word.WriteString("$SUBST")
		l.i = end
	case l.at(1) == '{':
		end := strings.IndexByte(l.s[l.i:], '}')
		if end < 0 {
			end = len(l.s) - l.i - 1
		}
		l.word.WriteString(l.s[l.i : l.i+end+1])
		l.i += end + 1
	default:
		l.word.WriteByte('$')
		l.i++
	}
}

// matchParen returns the text from start up to the ")" that closes an
// already-open "(", and the index after that ")". Quotes and nested parens
// are honoured; without a closing paren it runs to the end.
func matchParen(s string, start int) (body string, end int) {
	depth := 1
	for i := start; i < len(s); i++ {
		switch s[i] {
		case '\\':
			i++
		case '\'':
			if j := strings.IndexByte(s[i+1:], '\''); j >= 0 {
				i += j + 1
			} else {
				i = len(s)
			}
		case '"':
			for i++; i < len(s) && s[i] != '"'; i++ {
				if s[i] == '\\' {
					i++
				}
			}
		case '(':
			depth++
		case ')':
			depth--
			if depth == 0 {
				return s[start:i], i + 1
			}
		}
	}
	if start > len(s) {
		return "", len(s)
	}
	return s[start:], len(s)
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
