package seed

import (
	"fmt"
	"sort"
	"strconv"
	"strings"
	"sync"
	"unicode/utf8"
)

// scanSeed validates a seed file in one pass over its bytes, with the
// schema of [Validate] applied while scanning: no value tree is built and
// a valid seed costs no allocation beyond its warnings (issue 15: ≤ 1 ms
// for 1,600 entries). Its verdict is exact or says so:
//
//   - verdictValid: [ValidateJSON]'s decoding path would answer valid with
//     exactly the returned warnings;
//   - verdictInvalid: that path would answer invalid (a syntax error or a
//     schema problem; the errors themselves are left to it);
//   - verdictUnsure: the input has what the scanner does not judge: a
//     duplicate known key, an escape in a key or in a string whose value
//     is checked (version, enums, datetimes), an unknown top-level key
//     that is not valid UTF-8, a number with an exponent or over 300
//     digits where a number is checked, nesting beyond maxFastDepth,
//     anything but an object at the top, or data after it.
//
// FuzzScanSeed checks the verdicts against the decoding path.
func scanSeed(data []byte) (verdict, []string) {
	s := scanner{b: data}
	s.ws()
	if s.i >= len(s.b) || s.b[s.i] != '{' {
		return verdictUnsure, nil
	}
	if !s.object(rootShape(), 0, true) {
		return s.stop, nil
	}
	s.ws()
	switch {
	case s.i != len(s.b):
		return verdictUnsure, nil // encoding/json's rules for trailing data
	case s.bad:
		return verdictInvalid, nil
	}
	return verdictValid, s.warnings()
}

// warnings formats the unknown top-level keys as [Validate] does: sorted,
// each once.
func (s *scanner) warnings() []string {
	var out []string
	for _, k := range s.unknown {
		out = append(out, fmt.Sprintf("Unknown top-level key: %q (may be from a newer schema version)", k))
	}
	sort.Strings(out)
	for i := len(out) - 1; i > 0; i-- {
		if out[i] == out[i-1] {
			out = append(out[:i], out[i+1:]...)
		}
	}
	return out
}

// fieldKind is what the schema asks of a field's value.
type fieldKind uint8

const (
	kindString   fieldKind = iota // any string
	kindNonEmpty                  // a string of at least one character
	kindDatetime                  // a string IsDatetime accepts
	kindEnum                      // one of field.enum
	kindVersion                   // semver with major CurrentMajorVersion
	kindBool
	kindNumber
	kindStrings // an array of strings
	kindObject  // an object of field.shape
	kindObjects // an array of objects of field.shape
)

// field is one known key of an object and the schema of its value.
type field struct {
	name     string
	kind     fieldKind
	required bool
	enum     []string
	shape    shape
}

// shape lists an object's known keys (at most 16); others are skipped.
type shape []field

func req(name string, kind fieldKind) field { return field{name: name, kind: kind, required: true} }
func opt(name string, kind fieldKind) field { return field{name: name, kind: kind} }

func enumField(name string, required bool, options ...string) field {
	return field{name: name, kind: kindEnum, required: required, enum: options}
}

func objField(name string, kind fieldKind, required bool, sh shape) field {
	return field{name: name, kind: kind, required: required, shape: sh}
}

// rootShape is the seed's schema as scanSeed reads it, built on first use:
// as package variables, the shapes would be built by every process that
// links the seed (the SessionStart hook's never scans).
func rootShape() shape {
	rootShapeOnce.Do(func() { rootShapeValue = buildRootShape() })
	return rootShapeValue
}

var (
	rootShapeOnce  sync.Once
	rootShapeValue shape
)

// buildRootShape mirrors check.go field by field.
func buildRootShape() shape {
	countsShape := shape{req("accepted", kindNumber), req("rejected", kindNumber)}
	statsShape := shape{
		req("accepted", kindNumber), req("rejected", kindNumber),
		objField("byType", kindObject, true, shape{
			objField(TypePattern, kindObject, true, countsShape),
			objField(TypeInsight, kindObject, true, countsShape),
			objField(TypeSelfKnowledge, kindObject, true, countsShape),
		}),
		objField("confidenceSum", kindObject, true, countsShape),
		objField("confidenceCount", kindObject, true, countsShape),
	}
	learningShape := shape{
		req("id", kindString), req("content", kindNonEmpty), req("source", kindNonEmpty),
		req("extractedAt", kindDatetime), opt("confirmedAt", kindDatetime),
		req("confirmed", kindBool), req("tags", kindStrings),
	}
	proposalShape := shape{
		req("id", kindString), enumField("type", true, TypePattern, TypeInsight, TypeSelfKnowledge),
		req("content", kindNonEmpty), req("source", kindNonEmpty), req("extractedAt", kindDatetime),
		enumField("status", true, StatusPending, StatusAccepted, StatusRejected),
		enumField("method", false, MethodACR, MethodRegex),
		opt("confidence", kindNumber), opt("decidedAt", kindDatetime),
	}
	return shape{
		req("version", kindVersion),
		objField("identity", kindObject, true, shape{
			req("principalName", kindNonEmpty), req("aiName", kindNonEmpty),
			req("catchphrase", kindNonEmpty), req("voiceId", kindString),
			objField("preferences", kindObject, true, shape{
				enumField("responseStyle", true, "concise", "detailed", "adaptive"),
				req("timezone", kindString), req("locale", kindString),
			}),
		}),
		objField("learned", kindObject, true, shape{
			objField("patterns", kindObjects, true, learningShape),
			objField("insights", kindObjects, true, learningShape),
			objField("selfKnowledge", kindObjects, true, learningShape),
		}),
		objField("state", kindObject, true, shape{
			opt("lastSessionId", kindString), opt("lastSessionAt", kindDatetime),
			objField("proposals", kindObjects, true, proposalShape),
			req("activeProjects", kindStrings), opt("checkpointRef", kindString),
			objField("extractionStats", kindObject, false, statsShape),
		}),
	}
}

// object scans the object at s.i (nested depth levels deep) against sh.
// root collects unknown keys for the warnings.
func (s *scanner) object(sh shape, depth int, root bool) bool {
	var seen uint16
	hint := 0 // keys usually come in the shape's order
	s.i++     // '{'
	s.ws()
	more := s.i >= len(s.b) || s.b[s.i] != '}'
	if !more {
		s.i++
	}
	for more {
		key, ok := s.key()
		if !ok {
			return false
		}
		j := lookup(sh, key, hint)
		switch {
		case j >= 0 && seen&(1<<j) != 0:
			return s.unsure() // encoding/json keeps the last one
		case j >= 0:
			seen |= 1 << j
			hint = j + 1
			ok = s.value(&sh[j], depth+1)
		case root && !utf8.Valid(key):
			return s.unsure()
		case root:
			s.unknown = append(s.unknown, key)
			fallthrough
		default:
			ok = s.skip(depth + 1)
		}
		if !ok {
			return false
		}
		if more = s.next('}'); !more && s.stop != verdictValid {
			return false
		}
	}
	for j := range sh {
		if sh[j].required && seen&(1<<j) == 0 {
			s.bad = true
		}
	}
	return true
}

// lookup returns the index of key in sh, trying from hint on, or -1.
func lookup(sh shape, key []byte, hint int) int {
	for n := range sh {
		j := hint + n
		if j >= len(sh) {
			j -= len(sh)
		}
		if string(key) == sh[j].name {
			return j
		}
	}
	return -1
}

// value scans the value at s.i against f's schema.
func (s *scanner) value(f *field, depth int) bool {
	if s.i >= len(s.b) {
		return s.syntax()
	}
	c := s.b[s.i]
	switch f.kind {
	case kindString, kindNonEmpty, kindDatetime, kindEnum, kindVersion:
		if c != '"' {
			break
		}
		raw, escaped, ok := s.str()
		return ok && s.check(f, raw, escaped)
	case kindBool:
		switch c {
		case 't':
			return s.literal("true")
		case 'f':
			return s.literal("false")
		}
	case kindNumber:
		if c == '-' || '0' <= c && c <= '9' {
			exact, ok := s.number()
			return ok && (exact || s.unsure())
		}
	case kindStrings:
		if c == '[' {
			return s.elements(func() bool { return s.wantString(depth + 1) })
		}
	case kindObject:
		if c == '{' {
			return s.object(f.shape, depth, false)
		}
	case kindObjects:
		if c == '[' {
			return s.elements(func() bool { return s.wantObject(f.shape, depth+1) })
		}
	}
	return s.wrong(depth)
}

// wrong records a value of the wrong type and scans past it.
func (s *scanner) wrong(depth int) bool {
	s.bad = true
	return s.skip(depth)
}

func (s *scanner) wantString(depth int) bool {
	if s.i < len(s.b) && s.b[s.i] == '"' {
		_, _, ok := s.str()
		return ok
	}
	return s.wrong(depth)
}

func (s *scanner) wantObject(sh shape, depth int) bool {
	if s.i < len(s.b) && s.b[s.i] == '{' {
		return s.object(sh, depth, false)
	}
	return s.wrong(depth)
}

// check applies f's string rule to raw. Emptiness does not depend on
// escapes; the other rules compare text, so an escape there is left to
// the decoding path. Without an escape the decoded string is raw, or
// (invalid UTF-8) raw with U+FFFD, which no rule accepts either.
func (s *scanner) check(f *field, raw []byte, escaped bool) bool {
	switch f.kind {
	case kindString:
		return true
	case kindNonEmpty:
		s.bad = s.bad || len(raw) == 0
		return true
	}
	if escaped {
		return s.unsure()
	}
	switch f.kind {
	case kindDatetime:
		s.bad = s.bad || !datetimeBytes(raw)
	case kindEnum:
		s.bad = s.bad || !oneOf(raw, f.enum)
	case kindVersion:
		s.bad = s.bad || !versionOK(string(raw))
	}
	return true
}

func oneOf(raw []byte, options []string) bool {
	for _, o := range options {
		if string(raw) == o {
			return true
		}
	}
	return false
}

// versionOK is Validate's version rule: semver, major CurrentMajorVersion.
func versionOK(v string) bool {
	if !isSemver(v) {
		return false
	}
	major, _ := strconv.Atoi(v[:strings.IndexByte(v, '.')])
	return major == CurrentMajorVersion
}

// datetimeBytes is [IsDatetime] on bytes, without time.Parse: the same
// layout, then the ranges time.Parse enforces (month 1–12, the month's
// days in the proleptic Gregorian calendar, hour < 24, minute and second
// < 60).
func datetimeBytes(b []byte) bool {
	const base = "0000-00-00T00:00:00"
	if len(b) < len(base)+1 || b[len(b)-1] != 'Z' {
		return false
	}
	for i := 0; i < len(base); i++ {
		if c := b[i]; base[i] == '0' {
			if c < '0' || c > '9' {
				return false
			}
		} else if c != base[i] {
			return false
		}
	}
	if frac := b[len(base) : len(b)-1]; len(frac) > 0 {
		if frac[0] != '.' || len(frac) == 1 {
			return false
		}
		for _, c := range frac[1:] {
			if c < '0' || c > '9' {
				return false
			}
		}
	}
	year := num2(b[0:])*100 + num2(b[2:])
	month, day := num2(b[5:]), num2(b[8:])
	if month < 1 || month > 12 || day < 1 || day > daysIn(month, year) {
		return false
	}
	return num2(b[11:]) < 24 && num2(b[14:]) < 60 && num2(b[17:]) < 60
}

// num2 is the value of the two decimal digits at b[0:2].
func num2(b []byte) int { return int(b[0]-'0')*10 + int(b[1]-'0') }

func daysIn(month, year int) int {
	switch month {
	case 2:
		if year%4 == 0 && (year%100 != 0 || year%400 == 0) {
			return 29
		}
		return 28
	case 4, 6, 9, 11:
		return 30
	}
	return 31
}
