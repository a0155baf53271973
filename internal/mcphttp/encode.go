package mcphttp

import (
	"encoding/json"
	"unicode/utf8"

	"github.com/modelcontextprotocol/go-sdk/jsonrpc"
	"github.com/modelcontextprotocol/go-sdk/mcp"
)

// appendResponse appends the JSON-RPC response to c carrying res, or err
// when it is non-nil (as the SDK answers a tools/call whose handler
// failed: a *jsonrpc.Error as it is, another error with its text). A nil
// res is the result null, as the SDK sends it.
func appendResponse(dst []byte, c call, res *mcp.CallToolResult, err error, esc *escapes) ([]byte, error) {
	if err != nil {
		id, ierr := jsonrpc.MakeID(idValue(c.id))
		if ierr != nil {
			return nil, ierr
		}
		b, eerr := jsonrpc.EncodeMessage(&jsonrpc.Response{ID: id, Error: err})
		return append(dst, b...), eerr
	}
	dst = append(dst, `{"jsonrpc":"2.0","id":`...)
	dst = append(dst, c.id...)
	dst = append(dst, `,"result":`...)
	if res == nil {
		return append(dst, "null}"...), nil
	}
	dst, err = appendResult(dst, res, esc)
	return append(dst, '}'), err
}

// idValue is c.id as encoding/json decodes it (float64 or string).
func idValue(raw []byte) any {
	var v any
	_ = json.Unmarshal(raw, &v) // parseCall checked it
	return v
}

// appendResult appends res as the SDK writes it: content (never null),
// structuredContent, isError. The common shape (text content only, with
// structured content that is nil, a json.RawMessage or an empty map, and
// nothing else set) is written directly; a raw structured content is
// copied as it is, so it must be valid JSON (AddTool's always is).
// Anything else is marshalled with encoding/json, as the SDK does.
func appendResult(dst []byte, res *mcp.CallToolResult, esc *escapes) ([]byte, error) {
	if res.Content == nil {
		res.Content = []mcp.Content{} // avoid "null", as the SDK does
	}
	if !plainResult(res) {
		b, err := json.Marshal(res)
		return append(dst, b...), err
	}
	dst = append(dst, `{"content":[`...)
	for i, c := range res.Content {
		if i > 0 {
			dst = append(dst, ',')
		}
		dst = append(dst, `{"type":"text","text":`...)
		dst = esc.append(dst, c.(*mcp.TextContent).Text)
		dst = append(dst, '}')
	}
	dst = append(dst, ']')
	switch sc := res.StructuredContent.(type) {
	case json.RawMessage:
		dst = append(dst, `,"structuredContent":`...)
		dst = append(dst, sc...)
	case map[string]any:
		dst = append(dst, `,"structuredContent":{}`...)
	}
	if res.IsError {
		dst = append(dst, `,"isError":true`...)
	}
	return append(dst, '}'), nil
}

// plainResult reports whether appendResult writes res directly.
func plainResult(res *mcp.CallToolResult) bool {
	if res.Meta != nil || res.InputRequests != nil || res.RequestState != "" || res.NeedsInput() {
		return false
	}
	for _, c := range res.Content {
		t, ok := c.(*mcp.TextContent)
		if !ok || t.Meta != nil || t.Annotations != nil {
			return false
		}
	}
	switch sc := res.StructuredContent.(type) {
	case nil:
		return true
	case json.RawMessage:
		return len(sc) > 0
	case map[string]any:
		return len(sc) == 0
	}
	return false
}

const hex = "0123456789abcdef"

// appendString appends s as a JSON string that decodes to what
// encoding/json's encoding of s decodes to: invalid UTF-8 becomes U+FFFD;
// control characters, quote, backslash, U+2028 and U+2029 are escaped.
func appendString(dst []byte, s string) []byte {
	dst = append(dst, '"')
	start := 0
	for i := 0; i < len(s); {
		c := s[i]
		if c < utf8.RuneSelf {
			if c >= 0x20 && c != '"' && c != '\\' {
				i++
				continue
			}
			dst = append(dst, s[start:i]...)
			switch c {
			case '"', '\\':
				dst = append(dst, '\\', c)
			case '\n':
				dst = append(dst, '\\', 'n')
			case '\r':
				dst = append(dst, '\\', 'r')
			case '\t':
				dst = append(dst, '\\', 't')
			default:
				dst = append(dst, '\\', 'u', '0', '0', hex[c>>4], hex[c&0xf])
			}
			i++
			start = i
			continue
		}
		r, size := utf8.DecodeRuneInString(s[i:])
		if r == utf8.RuneError && size == 1 {
			dst = append(dst, s[start:i]...)
			dst = append(dst, `\ufffd`...)
			i += size
			start = i
			continue
		}
		if r == '\u2028' || r == '\u2029' {
			dst = append(dst, s[start:i]...)
			dst = append(dst, '\\', 'u', '2', '0', '2', hex[r&0xf])
			i += size
			start = i
			continue
		}
		i += size
	}
	dst = append(dst, s[start:]...)
	return append(dst, '"')
}
