package trail

import (
	"path"
	"strings"
)

// maxCommandBytes bounds the commands read: a longer one (a heredoc, a
// pasted script) is no reusable procedure and is not parsed.
const maxCommandBytes = 2048

// segment is one simple command of a shell line, normalised: cd prefixes,
// environment assignments, wrappers (timeout, time, nice, env) and
// redirections removed. Dir is the directory a preceding "cd" moved to
// (relative to the session's cwd, "" when none). Piped is set when the
// command's output went through a filter (tail, head, grep…), whose exit
// status hides the command's own.
type segment struct {
	Args  []string
	Dir   string
	Piped bool
}

// splitCommand splits a shell command line into its simple commands. It
// understands quotes, backslash escapes, &&, ||, ;, | and newlines; a line
// with command substitution, heredocs, subshells or unbalanced quotes
// yields nothing (it is not a plain, repeatable command).
func splitCommand(line string) []segment {
	if len(line) > maxCommandBytes || strings.Contains(line, "$(") || strings.Contains(line, "`") || strings.Contains(line, "<<") {
		return nil
	}
	pipelines, ok := tokenize(line)
	if !ok {
		return nil
	}
	var out []segment
	dir := ""
	for _, pl := range pipelines {
		args := clean(pl[0])
		if len(args) == 0 {
			continue
		}
		if args[0] == "cd" || args[0] == "pushd" {
			if len(args) == 2 {
				dir = joinDir(dir, args[1])
			}
			continue
		}
		s := segment{Args: args, Dir: dir}
		for _, next := range pl[1:] {
			if a := clean(next); len(a) > 0 && filters[a[0]] {
				s.Piped = true
				continue
			}
			s.Args = nil // piped into a program: not a plain command
		}
		if s.Args != nil {
			out = append(out, s)
		}
	}
	return out
}

// filters are programs a command's output is piped through to shorten or
// search it; they do not change what the command does.
var filters = map[string]bool{"tail": true, "head": true, "grep": true, "less": true, "more": true,
	"tee": true, "cat": true, "sort": true, "uniq": true, "wc": true, "sed": true, "awk": true, "cut": true}

func joinDir(cur, d string) string {
	switch {
	case d == "" || d == "." || d == "-":
		return cur
	case strings.HasPrefix(d, "/") || strings.HasPrefix(d, "~"):
		return d
	case cur == "":
		return path.Clean(d)
	}
	return path.Clean(cur + "/" + d)
}

// clean drops leading environment assignments (never kept: they may hold
// secrets), wrappers and redirections from one simple command's words.
func clean(words []string) []string {
	var args []string
	for i := 0; i < len(words); i++ {
		w := words[i]
		if isRedirect(w) {
			if redirectTakesNext(w) {
				i++
			}
			continue
		}
		if len(args) == 0 {
			if isAssignment(w) {
				continue
			}
			if n, ok := wrapperArgs(w, words[i+1:]); ok {
				i += n
				continue
			}
		}
		args = append(args, w)
	}
	return args
}

// wrapperArgs reports whether w wraps the command that follows, and how
// many of the following words are the wrapper's own arguments.
func wrapperArgs(w string, rest []string) (int, bool) {
	switch w {
	case "time", "nice", "nohup", "command", "exec", "env":
		n := 0
		for n < len(rest) && strings.HasPrefix(rest[n], "-") {
			n++
		}
		return n, true
	case "timeout", "gtimeout":
		n := 0
		for n < len(rest) && strings.HasPrefix(rest[n], "-") {
			n++
		}
		if n < len(rest) {
			n++ // the duration
		}
		return n, true
	}
	return 0, false
}

func isAssignment(w string) bool {
	eq := strings.IndexByte(w, '=')
	if eq <= 0 {
		return false
	}
	for i, r := range w[:eq] {
		if !(r == '_' || r >= 'A' && r <= 'Z' || r >= 'a' && r <= 'z' || i > 0 && r >= '0' && r <= '9') {
			return false
		}
	}
	return true
}

func isRedirect(w string) bool {
	w = strings.TrimLeft(w, "0123456789&")
	return strings.HasPrefix(w, ">") || strings.HasPrefix(w, "<")
}

// redirectTakesNext reports whether the redirection w names its target in
// the next word ("> out.txt" rather than ">out.txt" or "2>&1").
func redirectTakesNext(w string) bool {
	w = strings.TrimLeft(w, "0123456789&")
	return w == ">" || w == ">>" || w == "<" || w == ">|"
}

// tokenize splits line into pipelines (separated by &&, ||, ;, & and
// newlines), each a list of simple commands (separated by |), each a list
// of words with quotes removed. ok is false for unbalanced quotes and for
// subshells or groups.
func tokenize(line string) (pipelines [][][]string, ok bool) {
	var lx lexer
	for i := 0; i < len(line); i++ {
		c := line[i]
		switch {
		case c == '\\' && i+1 < len(line):
			i++
			if line[i] != '\n' {
				lx.cur.WriteByte(line[i])
				lx.inTok = true
			}
		case c == '\'' || c == '"':
			end := strings.IndexByte(line[i+1:], c)
			if end < 0 {
				return nil, false
			}
			lx.cur.WriteString(line[i+1 : i+1+end])
			lx.inTok = true
			i += end + 1
		case c == ' ' || c == '\t':
			lx.endWord()
		case c == '(' || c == ')' || c == '{' && !lx.inTok:
			return nil, false
		case c == '|' && i+1 < len(line) && line[i+1] == '|', c == '&' && i+1 < len(line) && line[i+1] == '&':
			lx.endPipeline()
			i++
		case c == '&' && (i+1 >= len(line) || line[i+1] != '>') && !(i > 0 && line[i-1] == '>'):
			lx.endPipeline()
		case c == ';' || c == '\n':
			lx.endPipeline()
		case c == '|':
			lx.endCmd()
		case c == '#' && !lx.inTok:
			for i < len(line) && line[i] != '\n' {
				i++
			}
			i--
		default:
			lx.cur.WriteByte(c)
			lx.inTok = true
		}
	}
	lx.endPipeline()
	return lx.pipelines, true
}

// lexer is tokenize's state: the word being read, the words of the
// command, the commands of the pipeline, the pipelines done.
type lexer struct {
	words     []string
	cmds      [][]string
	pipelines [][][]string
	cur       strings.Builder
	inTok     bool
}

func (l *lexer) endWord() {
	if l.inTok {
		l.words = append(l.words, l.cur.String())
		l.cur.Reset()
		l.inTok = false
	}
}

func (l *lexer) endCmd() {
	l.endWord()
	l.cmds = append(l.cmds, l.words)
	l.words = nil
}

func (l *lexer) endPipeline() {
	l.endCmd()
	if len(l.cmds) > 0 && len(l.cmds[0]) > 0 {
		l.pipelines = append(l.pipelines, l.cmds)
	}
	l.cmds = nil
}
