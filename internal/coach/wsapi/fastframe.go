package wsapi

import (
	"encoding/json"
	"strconv"
)

// Field names the fast path knows, as encoding/json matches them.
var (
	envelopeFields = []string{"type", "payload", "data", "id", "timestamp"}
	bufferFields   = []string{"path", "content", "cursorPosition", "selections"}
	cursorFields   = []string{"line", "column"}
)

// Indexes into envelopeFields.
const (
	fieldType = iota
	fieldPayload
	fieldData
	fieldID
	fieldTimestamp
)

// fastBufferUpdate decodes a buffer:update frame in one pass, straight
// into its payload struct (issue 15: encoding/json checked and copied
// each frame twice, two thirds of the message's CPU). It handles the
// common shape: a JSON object with each of type, payload (or data), id and
// timestamp at most once and spelled exactly so, a "buffer:update" type, a
// payload object whose fields appear at most once, and a payload within
// its limits and valid. ok is false for anything else — another type, an
// error, a duplicate or case-folded key, a non-ASCII or escaped key, deep
// nesting — and the caller then takes the encoding/json path
// ([DecodeEnvelope], [DecodePayload]), which alone produces every answer
// and error text. When ok is true, env and bu are what that path returns
// (FuzzFastBufferUpdate checks it), except that env.Payload is a slice of
// frame, not a copy.
func fastBufferUpdate(frame []byte) (env Envelope, bu BufferUpdate, ok bool) {
	s := scanner{b: frame}
	seen, ok := s.object(envelopeFields, func(f int) bool {
		switch f {
		case fieldType:
			return s.typeBufferUpdate()
		case fieldPayload, fieldData:
			start := s.i
			ok := s.bufferUpdate(&bu)
			env.Payload = json.RawMessage(frame[start:s.i])
			return ok
		case fieldID:
			var ok bool
			env.ID, ok = s.id()
			return ok
		case fieldTimestamp:
			var ok bool
			env.Timestamp, ok = s.timestamp()
			return ok
		case -1:
			return s.skip(1)
		}
		return false
	})
	if !ok {
		return env, bu, false
	}
	s.space()
	payloads := seen & (1<<fieldPayload | 1<<fieldData)
	if s.i != len(frame) || seen&(1<<fieldType) == 0 || payloads == 0 || payloads == 1<<fieldPayload|1<<fieldData {
		return env, bu, false
	}
	if bu.CheckLimits() != nil || bu.Valid() != nil {
		return env, bu, false
	}
	env.Type = TypeBufferUpdate
	return env, bu, true
}

// typeBufferUpdate consumes the type's value and reports whether it is the
// string "buffer:update".
func (s *scanner) typeBufferUpdate() bool {
	const quoted = `"` + TypeBufferUpdate + `"`
	if s.literal(quoted) {
		return true
	}
	t, ok := s.str()
	return ok && t == TypeBufferUpdate
}

// id decodes the id as [decodeID] does: a string as is, a number as its
// text, anything else (null, true, an object) as "".
func (s *scanner) id() (string, bool) {
	switch c := s.peek(); {
	case c == '"':
		return s.str()
	case c == '-' || '0' <= c && c <= '9':
		lit, _, ok := s.number()
		return string(lit), ok
	}
	return "", s.skip(1)
}

// timestamp decodes the timestamp as [DecodeEnvelope] does: a number
// through float64, anything else as 0.
func (s *scanner) timestamp() (int64, bool) {
	c := s.peek()
	if c != '-' && (c < '0' || c > '9') {
		return 0, s.skip(1)
	}
	lit, integer, ok := s.number()
	if !ok {
		return 0, false
	}
	if n, ok := smallInt(lit, integer); ok {
		return n, true
	}
	f, err := strconv.ParseFloat(string(lit), 64)
	if err != nil {
		return 0, true // out of float64's range: encoding/json fails, the timestamp is 0
	}
	return int64(f), true
}

// object decodes a JSON object whose known keys are fields: field is
// called with each key's index in fields (-1 for another key, whose value
// it must skip) to consume the value. A known key seen twice, or field
// returning false, declines the frame. seen has bit i set for each
// fields[i] present.
func (s *scanner) object(fields []string, field func(f int) bool) (seen uint, ok bool) {
	if !s.consume('{') {
		return 0, false
	}
	if s.consume('}') {
		return 0, true
	}
	for more := true; more; {
		name, ok := s.key()
		if !ok {
			return seen, false
		}
		f := lookup(name, fields)
		if f >= 0 {
			if seen&(1<<f) != 0 {
				return seen, false
			}
			seen |= 1 << f
		}
		if !field(f) {
			return seen, false
		}
		if more, ok = s.next('}'); !ok {
			return seen, false
		}
	}
	return seen, true
}

// bufferUpdate decodes a buffer:update payload object into bu.
func (s *scanner) bufferUpdate(bu *BufferUpdate) bool {
	_, ok := s.object(bufferFields, func(f int) bool {
		var ok bool
		switch f {
		case 0:
			bu.Path, ok = s.str()
		case 1:
			var c string
			c, ok = s.str()
			bu.Content = &c
		case 2:
			ok = s.cursor(&bu.CursorPosition)
		case 3:
			bu.Selections, ok = s.rawList()
		case -1:
			ok = s.skip(2)
		}
		return ok
	})
	return ok
}

// cursor decodes a {line, column} object.
func (s *scanner) cursor(p *Position) bool {
	_, ok := s.object(cursorFields, func(f int) bool {
		switch f {
		case 0, 1:
			lit, integer, ok := s.number()
			if !ok {
				return false
			}
			n, ok := smallInt(lit, integer)
			if !ok {
				return false
			}
			if f == 0 {
				p.Line = int(n)
			} else {
				p.Column = int(n)
			}
			return true
		case -1:
			return s.skip(3)
		}
		return false
	})
	return ok
}

// rawList decodes null or an array into a []json.RawMessage holding a copy
// of each element's text, as encoding/json does ([] gives an empty,
// non-nil slice).
func (s *scanner) rawList() ([]json.RawMessage, bool) {
	if s.literal("null") {
		return nil, true
	}
	if s.peek() != '[' {
		return nil, false
	}
	s.i++
	out := []json.RawMessage{}
	if s.consume(']') {
		return out, true
	}
	for more := true; more; {
		s.space()
		start := s.i
		if !s.skip(3) {
			return nil, false
		}
		out = append(out, append(json.RawMessage(nil), s.b[start:s.i]...))
		var ok bool
		if more, ok = s.next(']'); !ok {
			return nil, false
		}
	}
	return out, true
}
