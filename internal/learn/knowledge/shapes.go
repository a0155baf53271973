package knowledge

import "strings"

// The shapes of a word that make it an entity (see [Entities]), matched by
// hand: each function is exactly the anchored regexp in its comment (no
// case folding; \w, \d and \s are ASCII), so it holds on any text, and
// FuzzShapes checks it against that regexp.

// hasEntityShape reports whether w is a path, a file, a flag, a scoped
// package, a dotted or a snake_case name.
func hasEntityShape(w string) bool {
	return isPathShape(w) || isFileShape(w) || isFlagShape(w) || isScopedShape(w) || isDottedShape(w) || isSnakeShape(w)
}

// isPathShape is `^(~|\.{1,2})?/?[\w.@-]+/[\w./@-]*$`. The dots of the
// prefix are also path characters, so only "~" and the first "/" need
// taking off; what is left must be path characters and slashes with a
// slash after the first character.
func isPathShape(w string) bool {
	w = strings.TrimPrefix(w, "~")
	w = strings.TrimPrefix(w, "/")
	if strings.IndexByte(w, '/') < 1 {
		return false
	}
	return allBytes(w, func(c byte) bool { return c == '/' || isPathByte(c) })
}

// isPathByte is [\w.@-].
func isPathByte(c byte) bool { return isWordByte(c) || c == '.' || c == '@' || c == '-' }

// isNameByte is [\w.-].
func isNameByte(c byte) bool { return isWordByte(c) || c == '.' || c == '-' }

// fileExtensions are the extensions of isFileShape.
var fileExtensions = wordList(`go mod sum py pyi rs toml ts tsx js jsx mjs cjs json jsonc yml yaml md sh bash zsh rb ex exs heex eex
	java kt kts swift c h cc cpp hpp cs php sql tf tfvars tfstate lock env ini cfg conf txt csv html css scss vue svelte proto
	graphql dockerfile xml gradle ipynb`)

// isFileShape is `^[\w-]*\.(go|mod|…|ipynb)$|^\.[\w.-]+$`: no extension
// holds a dot, so the first alternative has exactly one.
func isFileShape(w string) bool {
	if len(w) >= 2 && w[0] == '.' && allBytes(w[1:], isNameByte) {
		return true
	}
	dot := strings.IndexByte(w, '.')
	return dot >= 0 && allBytes(w[:dot], func(c byte) bool { return isWordByte(c) || c == '-' }) && fileExtensions[w[dot+1:]]
}

// isFlagShape is `^--?[a-zA-Z][\w-]*(=\S+)?$`.
func isFlagShape(w string) bool {
	if len(w) < 2 || w[0] != '-' {
		return false
	}
	i := 1
	if w[1] == '-' {
		i = 2
	}
	if i == len(w) || !isLetterByte(w[i]) {
		return false
	}
	for i++; i < len(w) && (isWordByte(w[i]) || w[i] == '-'); i++ {
	}
	if i == len(w) {
		return true
	}
	return w[i] == '=' && i+1 < len(w) && allBytes(w[i+1:], func(c byte) bool { return !isSpaceByte(c) })
}

// isScopedShape is `^@[\w.-]+(/[\w.-]+)?$`.
func isScopedShape(w string) bool {
	if len(w) < 2 || w[0] != '@' {
		return false
	}
	scope, name, slash := strings.Cut(w[1:], "/")
	return scope != "" && allBytes(scope, isNameByte) && (!slash || name != "" && allBytes(name, isNameByte))
}

// isDottedShape is `^[a-zA-Z]\w*(\.[a-zA-Z]\w*)+$`.
func isDottedShape(w string) bool {
	if strings.IndexByte(w, '.') < 0 {
		return false
	}
	for part := range strings.SplitSeq(w, ".") {
		if part == "" || !isLetterByte(part[0]) || !allBytes(part, isWordByte) {
			return false
		}
	}
	return true
}

// isSnakeShape is `^[a-zA-Z]+(_[a-zA-Z0-9]+)+$`.
func isSnakeShape(w string) bool {
	head, tail, ok := strings.Cut(w, "_")
	if !ok || head == "" || !allBytes(head, isLetterByte) {
		return false
	}
	for part := range strings.SplitSeq(tail, "_") {
		if part == "" || !allBytes(part, func(c byte) bool { return isLetterByte(c) || isDigitByte(c) }) {
			return false
		}
	}
	return true
}

// numberSuffixes are the units of isNumberShape.
var numberSuffixes = wordList(`st nd rd th s x k m mb gb kb ms px %`)

// isNumberShape is `^(\d+(st|nd|rd|th|s|x|k|m|mb|gb|kb|ms|px|%)?|v?\d+(\.\d+)*)$`.
func isNumberShape(w string) bool {
	digits := 0
	for digits < len(w) && isDigitByte(w[digits]) {
		digits++
	}
	if digits > 0 && (digits == len(w) || numberSuffixes[w[digits:]]) {
		return true
	}
	for part := range strings.SplitSeq(strings.TrimPrefix(w, "v"), ".") {
		if part == "" || !allBytes(part, isDigitByte) {
			return false
		}
	}
	return true
}

func allBytes(s string, ok func(byte) bool) bool {
	for i := 0; i < len(s); i++ {
		if !ok(s[i]) {
			return false
		}
	}
	return true
}

func isLetterByte(c byte) bool { return c >= 'a' && c <= 'z' || c >= 'A' && c <= 'Z' }

func isDigitByte(c byte) bool { return c >= '0' && c <= '9' }

// isSpaceByte is \s: [\t\n\f\r ].
func isSpaceByte(c byte) bool { return c == ' ' || c == '\t' || c == '\n' || c == '\f' || c == '\r' }
