package redact

import (
	"strings"
	"sync"
)

// assignHints are the name fragments an assignment rule needs.
var assignHints = []string{"pass", "pwd", "secret", "token", "key"}

// assignRe matches name, operator and value of an assignment whose name
// contains a secret word: password = "x", PASSWORD=x, "api_key": "x",
// api_token: x. The value is a quoted string on one line or a bare word,
// followed by the first letter of a next word or by an operator (then a
// quoted "value" may be the next key) if there is one;
// [redactAssignment] decides whether the name and value make a secret.
var assignRe = lazyRegexp(`^([A-Za-z0-9_.\-]*(?i:pass|pwd|secret|token|key)[A-Za-z0-9_\-]*)` +
	`(["']?[ \t]*(?::=|=|:)[ \t]*)` +
	"(\"(?:[^\"\\\\\\n]|\\\\.)*\"|'(?:[^'\\\\\\n]|\\\\.)*'|`[^`\\n]*`|[^\\s\"'`,;&)\\]}]+)" +
	`((?:[ \t]+[A-Za-z]|[ \t]*[:=])?)`)

// assignmentAhead reports whether s starts with a name followed by an
// assignment operator (after an optional closing quote and blanks): the
// cheap test that keeps assignRe off names that are not assigned.
func assignmentAhead(s string) bool {
	i := 0
	for i < len(s) && identChar(s[i]) {
		i++
	}
	if i < len(s) && (s[i] == '"' || s[i] == '\'') {
		i++
	}
	for i < len(s) && (s[i] == ' ' || s[i] == '\t') {
		i++
	}
	return i < len(s) && (s[i] == ':' || s[i] == '=')
}

// redactAssignment replaces the value of a secret assignment, keeping the
// name, the operator and the quotes.
func redactAssignment(sub []string) string {
	name, op, val, more := sub[1], sub[2], sub[3], sub[4]
	kind, ok := secretName(name)
	if !ok {
		return sub[0]
	}
	if q := val[0]; q == '"' || q == '\'' || q == '`' {
		if !literalSecret(val[1:len(val)-1]) || nextKey(val, more) {
			return sub[0]
		}
		return name + op + string(q) + marker(kind) + string(q) + more
	}
	if !bareSecret(val) || label(op, more) && !credential(val) {
		return sub[0]
	}
	return name + op + marker(kind) + more
}

// nextKey reports whether a quoted value is rather the next key: followed
// by an operator and itself a secret name (APIKEY= "api_key": "x"), which
// the next try then redacts.
func nextKey(val, more string) bool {
	_, ok := secretName(val[1 : len(val)-1])
	return ok && strings.ContainsAny(more, ":=")
}

// label reports whether a bare value after op reads as prose after a
// label ("Password: must be 12 characters"): a colon, and more words on
// the line. Such a value is a secret only when it looks like a credential.
func label(op, more string) bool {
	return strings.TrimLeft(more, " \t") != "" && !strings.ContainsAny(more, ":=") &&
		strings.Contains(op, ":") && !strings.Contains(op, ":=")
}

// credential reports whether v mixes letters with digits or symbols.
func credential(v string) bool {
	return hasLetter(v) && (hasDigit(v) || strings.ContainsAny(v, "!@#$%^&*_+=~-/\\."))
}

// secretName returns the kind of secret a name holds (the last dotted
// segment of it, any case, with _ and - ignored): password, secret, token,
// api-key or aws-secret-key. ok is false for any other name, including
// names that only contain a secret word (password_hash, tokenizer,
// max_tokens, primary_key, PWD).
func secretName(name string) (kind string, ok bool) {
	n := asciiLower(strings.Trim(name, `"'`)) // as the hints: K (U+212A) is no k
	if i := strings.LastIndexByte(n, '.'); i >= 0 {
		n = n[i+1:]
	}
	sq := strings.Map(func(r rune) rune {
		if r == '_' || r == '-' {
			return -1
		}
		return r
	}, n)
	switch {
	case hasSuffix(sq, "password", "passwd", "passphrase", "passcode"),
		n == "pass", hasSuffix(n, "_pass", "-pass", "_pwd", "-pwd"):
		return "password", true
	case hasSuffix(sq, "secretaccesskey"):
		return "aws-secret-key", true
	case hasSuffix(sq, "secret", "secretkey"):
		return "secret", true
	case hasSuffix(sq, "token"):
		return "token", true
	case hasSuffix(sq, "apikey", "accesskey", "privatekey", "signingkey", "encryptionkey", "masterkey", "authkey",
		"accountkey", "sharedaccesskey"):
		return "api-key", true
	}
	return "", false
}

func hasSuffix(s string, suffixes ...string) bool {
	for _, x := range suffixes {
		if strings.HasSuffix(s, x) {
			return true
		}
	}
	return false
}

// literalSecret reports whether the content of a quoted value is a secret:
// not empty, not a placeholder, not already redacted.
func literalSecret(v string) bool {
	v = strings.TrimSpace(v)
	return v != "" && !placeholder(v)
}

// placeholder reports whether v stands for a value rather than being one:
// ${X}, $X, {{x}}, <your-key>, %s, masks of 3 or more (***, xxxx) and
// markers.
func placeholder(v string) bool {
	switch {
	case isMarker(v), strings.HasPrefix(v, "$"), strings.HasPrefix(v, "{{"), strings.HasPrefix(v, "%"),
		strings.HasPrefix(v, "<") && strings.HasSuffix(v, ">"):
		return true
	}
	return len(v) >= 3 && strings.Trim(v, "*xX.•") == ""
}

// notValues are bare words that name a type or a constant, never a secret.
func notValues() map[string]bool {
	buildWordLists()
	return wordLists.notValues
}

// wordLists holds notValues and plainStop, built on first use: as package
// maps they would be built by every process that links redact, such as the
// SessionStart hook's, which never redacts.
var wordLists struct {
	once                 sync.Once
	notValues, plainStop map[string]bool
}

func buildWordLists() {
	wordLists.once.Do(func() {
		wordLists.notValues, wordLists.plainStop = notValueWords(), plainStopWords()
	})
}

func notValueWords() map[string]bool {
	return map[string]bool{
		"true": true, "false": true, "null": true, "nil": true, "none": true, "undefined": true,
		"string": true, "str": true, "int": true, "bool": true, "boolean": true, "number": true,
		"bytes": true, "any": true, "object": true, "optional": true, "required": true, "empty": true,
		"yes": true, "no": true, "on": true, "off": true, "text": true, "varchar": true, "secret": true,
		"password": true, "token": true, "redacted": true, "hidden": true, "masked": true,
	}
}

// identPath matches a dotted identifier path (user.password, os.environ,
// process.env.TOKEN): code naming a value, not a value.
var identPath = lazyRegexp(`^[A-Za-z_$][A-Za-z0-9_$]*(?:\.[A-Za-z_$][A-Za-z0-9_$]*)+$`)

// bareSecret reports whether an unquoted value is a secret literal (as in
// .env, YAML, INI or shell) rather than code: at least 4 characters, not
// an operator (==), a call, an index, a reference ($X, a.b.c), a type or a
// constant.
func bareSecret(v string) bool {
	v = strings.TrimRight(v, ".")
	switch {
	case len(v) < 4, placeholder(v), notValues()[strings.ToLower(v)], identPath().MatchString(v):
		return false
	case strings.ContainsAny(v[:1], "=!<>([{#/*&|+"), strings.ContainsAny(v, "(["):
		return false
	}
	return true
}

// plainHints are the words a plain-language secret needs.
var plainHints = []string{"pass", "token", "secret", "api", "pin"}

// plainRe matches "the password is X", "my token was X", "api key is X",
// "password for the db is X"; [redactPlain] decides whether X is a secret.
var plainRe = lazyRegexp(`^(?i)((password|passphrase|passcode|pin(?:[ \t]+(?:code|number))?|token|api[ _\-]?key|secret)` +
	`(?:\s+(?:for|of|to)\s+(?:the\s+|my\s+)?[\w.\-]+)?\s+(?:is|was)\s+(?:now\s+|still\s+|set\s+to\s+)?)` +
	"(\"[^\"\\n]+\"|'[^'\\n]+'|`[^`\\n]+`|[^\\s\"'`,;]+)")

// plainAhead reports whether " is " or " was " follows within the reach of
// plainRe: the cheap test that keeps plainRe off most mentions of a word.
func plainAhead(s string) bool {
	w := s[:min(len(s), 80)]
	for i := 0; i+3 < len(w); i++ {
		if c := w[i]; c != ' ' && c != '\t' {
			continue
		}
		rest := w[i+1:]
		if hasPrefixLower(rest, "is") && len(rest) > 2 && rest[2] <= ' ' ||
			hasPrefixLower(rest, "was") && len(rest) > 3 && rest[3] <= ' ' {
			return true
		}
	}
	return false
}

// redactPlain replaces the secret of a plain-language sentence. A quoted
// value is always a secret; a bare one when it mixes letters with digits or
// symbols, is all digits (4+), or — for passwords only — is a word that is
// not an ordinary adjective, adverb or participle ("is wrong", "is
// required", "is stored").
func redactPlain(sub []string) string {
	lead, word, val := sub[1], strings.ToLower(sub[2]), sub[3]
	kind := "password"
	switch {
	case word == "token":
		kind = "token"
	case word == "secret":
		kind = "secret"
	case strings.HasPrefix(word, "api"):
		kind = "api-key"
	case strings.HasPrefix(word, "pin"):
		kind = "pin"
	}
	if q := val[0]; q == '"' || q == '\'' || q == '`' {
		if !literalSecret(val[1 : len(val)-1]) {
			return sub[0]
		}
		return lead + string(q) + marker(kind) + string(q)
	}
	core := strings.TrimRight(val, ".!?)")
	if !plainSecret(core, kind == "password") {
		return sub[0]
	}
	return lead + marker(kind) + val[len(core):]
}

func plainSecret(v string, password bool) bool {
	lower := strings.ToLower(v)
	if len(v) < 4 || placeholder(v) || notValues()[lower] || plainStop()[lower] {
		return false
	}
	if hasDigit(v) || strings.ContainsAny(v, "!@#$%^&*_+=~-/\\") {
		return true
	}
	if !password || !allLetters(v) {
		return false
	}
	return !hasSuffix(lower, "ed", "ing", "ly", "able", "ible", "ive", "ous", "ful", "less", "ent", "ant", "ure")
}

func allLetters(s string) bool {
	for i := 0; i < len(s); i++ {
		if c := s[i] | 0x20; c < 'a' || c > 'z' {
			return false
		}
	}
	return true
}

// plainStop are words that follow "the password is" in prose.
func plainStop() map[string]bool {
	buildWordLists()
	return wordLists.plainStop
}

func plainStopWords() map[string]bool {
	return map[string]bool{
		"wrong": true, "correct": true, "invalid": true, "valid": true, "missing": true, "weak": true,
		"strong": true, "long": true, "short": true, "same": true, "case": true, "also": true, "just": true,
		"only": true, "never": true, "always": true, "sent": true, "shown": true, "known": true, "unknown": true,
		"secure": true, "insecure": true, "there": true, "here": true, "what": true, "that": true, "this": true,
		"then": true, "when": true, "where": true, "which": true, "your": true, "their": true, "then,": true,
		"reset": true, "set": true, "unset": true, "kept": true, "held": true, "read": true, "given": true,
		"taken": true, "too": true, "very": true, "being": true, "been": true, "good": true, "fine": true,
		"okay": true, "gone": true, "blank": true, "null": true, "empty": true, "nothing": true, "something": true,
		"from": true, "into": true, "used": true, "over": true, "under": true, "about": true, "like": true,
	}
}
