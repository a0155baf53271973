package claudecode

import (
	"path"
	"strings"
)

// spec is what the guard knows about one program (or subcommand): the
// options it may take, all of which only read. A command is allowed only
// when every option it is given is listed here.
type spec struct {
	// any: no option or operand of the program writes or runs another
	// program, so its arguments are not checked and may be known only at
	// run time (cat, ls, wc…).
	any bool
	// short lists the one-letter options without a value; shortVal those
	// that take one (-A 3 or -A3).
	short, shortVal string
	// long lists the long options without a value, longVal those that
	// take one (--format=x or --format x), both without the dashes.
	long, longVal []string
	// posix: options come only before the first operand (printf); the
	// later arguments are operands whatever they look like.
	posix bool
	// maxOperands bounds the operands: -1 any number, 0 none, n at most n
	// (a later operand of uniq or xxd names a file they write).
	maxOperands int
	// sub, when set, is the program's subcommands: the first operand
	// picks one, and the arguments after it are checked against it.
	sub map[string]*spec
	// check, when set, replaces the option parsing: it gets the raw
	// arguments (find's expressions, go's single-dash flags).
	check func(args []arg) string
	// then, when set, looks at the parsed command as a whole (sed's
	// script, a branch listing that must not create a branch).
	then func(p parsed) string
}

// parsed is a command line split by its spec: the options given (name as
// written, "-x" or "--name", and value), and the operands in order.
type parsed struct {
	opts     []opt
	operands []arg
}

type opt struct {
	name, value string
}

// has reports whether one of names was given.
func (p parsed) has(names ...string) bool {
	for _, o := range p.opts {
		for _, n := range names {
			if o.name == n {
				return true
			}
		}
	}
	return false
}

// values returns the values given to the options named names.
func (p parsed) values(names ...string) []string {
	var out []string
	for _, o := range p.opts {
		for _, n := range names {
			if o.name == n {
				out = append(out, o.value)
			}
		}
	}
	return out
}

// commandWhy returns why running name with args is not known to be
// read-only, or "".
func commandWhy(name string, args []arg) string {
	if strings.Contains(name, "/") {
		return "runs " + quote(name) + " by path; call the program by its name (" + path.Base(name) + ")"
	}
	if why, ok := refused[name]; ok {
		return name + " " + why
	}
	s, ok := programs[name]
	if !ok {
		return quote(name) + " is not a command Paige knows to be read-only"
	}
	return specWhy(name, s, args)
}

// specWhy checks args against s; what names the command in reasons.
func specWhy(what string, s *spec, args []arg) string {
	if s.any {
		return ""
	}
	if s.check != nil {
		return s.check(args)
	}
	p, rest, why := parseArgs(what, s, args)
	if why != "" {
		return why
	}
	if s.sub != nil {
		if len(p.operands) == 0 {
			if s.then != nil {
				return s.then(p)
			}
			return ""
		}
		first := p.operands[0]
		sub, ok := s.sub[first.v]
		if !first.lit || !ok {
			return what + " " + first.v + " is not a subcommand Paige knows to be read-only"
		}
		return specWhy(what+" "+first.v, sub, rest)
	}
	if s.maxOperands >= 0 && len(p.operands) > s.maxOperands {
		return what + " takes at most " + itoa(s.maxOperands) + " operand(s) here: another one names a file it writes"
	}
	if s.then != nil {
		return s.then(p)
	}
	return ""
}

// parseArgs splits args into options and operands by s. With subcommands
// (s.sub), parsing stops at the first operand and rest holds the arguments
// after it. An option s does not list, or an argument that is not literal
// where an option could be, is the reason to deny.
func parseArgs(what string, s *spec, args []arg) (p parsed, rest []arg, why string) {
	for i := 0; i < len(args); i++ {
		a := args[i]
		switch {
		case a.lit && a.v == "--":
			p.operands = append(p.operands, args[i+1:]...) // after --, nothing is an option
			return p, nil, ""
		case a.operand || a.lit && a.v == "-":
			p.operands = append(p.operands, a)
			if s.sub != nil {
				return p, args[i+1:], ""
			}
			if s.posix {
				p.operands = append(p.operands, args[i+1:]...)
				return p, nil, ""
			}
		case !a.lit:
			return p, nil, what + " takes an argument known only at run time where an option could be"
		case strings.HasPrefix(a.v, "--"):
			name, value, hasValue := strings.Cut(a.v[2:], "=")
			switch {
			case contains(s.long, name) && !hasValue:
			case contains(s.longVal, name):
				if !hasValue {
					if i+1 >= len(args) || !args[i+1].lit {
						return p, nil, what + " --" + name + " lacks its value"
					}
					i++
					value = args[i].v
				}
			default:
				return p, nil, what + " --" + name + " is not an option Paige knows to be read-only"
			}
			p.opts = append(p.opts, opt{"--" + name, value})
		default:
			n, why := shortOpts(what, s, a.v[1:], args[i+1:], &p)
			if why != "" {
				return p, nil, why
			}
			i += n
		}
	}
	return p, nil, ""
}

// shortOpts parses one cluster of short options (-abc, -A3, -A 3); it
// returns how many of the following arguments it took as a value.
func shortOpts(what string, s *spec, cluster string, next []arg, p *parsed) (int, string) {
	for j := 0; j < len(cluster); j++ {
		c := cluster[j]
		switch {
		case strings.IndexByte(s.short, c) >= 0:
			p.opts = append(p.opts, opt{"-" + string(c), ""})
		case strings.IndexByte(s.shortVal, c) >= 0:
			if j+1 < len(cluster) {
				p.opts = append(p.opts, opt{"-" + string(c), cluster[j+1:]})
				return 0, ""
			}
			if len(next) == 0 || !next[0].lit {
				return 0, what + " -" + string(c) + " lacks its value"
			}
			p.opts = append(p.opts, opt{"-" + string(c), next[0].v})
			return 1, ""
		default:
			return 0, what + " -" + string(c) + " is not an option Paige knows to be read-only"
		}
	}
	return 0, ""
}

func contains(list []string, s string) bool {
	for _, x := range list {
		if x == s {
			return true
		}
	}
	return false
}

func itoa(n int) string {
	if n < 10 {
		return string(rune('0' + n))
	}
	return itoa(n/10) + itoa(n%10)
}

func quote(s string) string { return `"` + s + `"` }

// words splits a space-separated list (the tables' long options).
func words(s string) []string { return strings.Fields(s) }
