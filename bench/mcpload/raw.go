package main

import (
	"bufio"
	"bytes"
	"context"
	"errors"
	"fmt"
	"io"
	"net"
	"net/url"
	"strconv"
	"strings"
	"time"
)

// rawCaller makes one session's tools/call requests over its own
// kept-alive HTTP/1.1 connection, without net/http: the request is the
// session's pre-encoded call with only its id and Content-Length written
// per call, sent in one write; the answer's status line and headers are
// read only for the status, the length or chunked framing, the content
// type and Connection: close. Each answer is still checked (see
// [answerCheck]). net/http's client cost more CPU per call than the
// server it measured (about 150 µs at 16 clients, 250 µs sequentially,
// on a 2-core machine): the load generator, not the server, capped the
// closed loop. A rawCaller is used by one goroutine at a time.
type rawCaller struct {
	s     *session
	addr  string // host:port to dial
	head  []byte // request line and headers, up to "Content-Length: "
	req   []byte // the request being sent, reused
	conn  net.Conn
	br    *bufio.Reader
	ans   answer
	check answerCheck
	// deadline is the connection's read/write deadline: armed callTimeout
	// ahead, re-armed once less than callTimeout-rearmSlack is left, so a
	// stuck server fails the call instead of hanging the run.
	deadline time.Time
	watched  context.Context // the context whose cancellation unblocks conn
	unwatch  func() bool
}

const (
	// callTimeout bounds one call, as the net/http client's Timeout did.
	callTimeout = 30 * time.Second
	// rearmSlack is how much of callTimeout may pass before the deadline
	// is moved again (not on every call: a deadline change has a cost).
	rearmSlack = 10 * time.Second
	// readBufSize is the connection's read buffer: a header line longer
	// than this is refused.
	readBufSize = 16 << 10
)

// newRawCaller returns the raw caller of s, whose calls go to rawURL.
// The session id and protocol version must be header-safe.
func newRawCaller(s *session, rawURL string) (*rawCaller, error) {
	u, err := url.Parse(rawURL)
	if err != nil {
		return nil, err
	}
	if u.Scheme != "http" || u.Host == "" {
		return nil, fmt.Errorf("raw calls need an http:// URL with a host, not %q", rawURL)
	}
	port := u.Port()
	if port == "" {
		port = "80"
	}
	for _, v := range []string{s.id, s.version, u.Host, u.RequestURI()} {
		if !headerSafe(v) {
			return nil, fmt.Errorf("raw calls: %q cannot go in a request header", v)
		}
	}
	head := fmt.Appendf(nil, "POST %s HTTP/1.1\r\nHost: %s\r\nUser-Agent: mcpload\r\n"+
		"Content-Type: application/json\r\nAccept: application/json, text/event-stream\r\n"+
		"Mcp-Session-Id: %s\r\nMcp-Protocol-Version: %s\r\nContent-Length: ",
		u.RequestURI(), u.Host, s.id, s.version)
	return &rawCaller{s: s, addr: net.JoinHostPort(u.Hostname(), port), head: head}, nil
}

// headerSafe reports whether v may be written into a header line as is.
func headerSafe(v string) bool {
	for i := 0; i < len(v); i++ {
		if c := v[i]; c < 0x20 || c == 0x7f {
			return false
		}
	}
	return v != ""
}

// callTool makes one tools/call and checks its answer as
// [session.callTool] does. A failed call closes the connection; the next
// call dials again. When ctx ends, a call in progress returns ctx.Err().
func (c *rawCaller) callTool(ctx context.Context) error {
	if err := ctx.Err(); err != nil {
		return err
	}
	id := c.s.next
	c.s.next++
	err := c.roundTrip(ctx, id)
	if err != nil {
		c.close()
		if ctx.Err() != nil {
			return ctx.Err()
		}
		return err
	}
	if c.ans.close {
		c.close()
	}
	if c.ans.status != 200 {
		return fmt.Errorf("HTTP %d: %s", c.ans.status, bytes.TrimSpace(c.ans.body[:min(len(c.ans.body), 512)]))
	}
	return c.check.check(c.s, c.ans.ctype, c.ans.body, id)
}

// roundTrip sends the call with id and reads its answer into c.ans.
func (c *rawCaller) roundTrip(ctx context.Context, id int64) error {
	if c.conn == nil {
		conn, err := (&net.Dialer{Timeout: callTimeout}).DialContext(ctx, "tcp", c.addr)
		if err != nil {
			return err
		}
		c.conn, c.br, c.deadline = conn, bufio.NewReaderSize(conn, readBufSize), time.Time{}
	}
	if ctx != c.watched {
		c.stopWatching()
		conn := c.conn
		c.watched, c.unwatch = ctx, context.AfterFunc(ctx, func() { _ = conn.SetDeadline(time.Unix(1, 0)) })
	}
	if now := time.Now(); c.deadline.Sub(now) < callTimeout-rearmSlack {
		c.deadline = now.Add(callTimeout)
		if err := c.conn.SetDeadline(c.deadline); err != nil {
			return err
		}
		if err := ctx.Err(); err != nil { // cancelled while the deadline moved
			return err
		}
	}
	c.req = c.s.appendCallRequest(c.req[:0], c.head, id)
	if _, err := c.conn.Write(c.req); err != nil {
		return err
	}
	return readAnswer(c.br, &c.ans)
}

// appendCallRequest appends to b the HTTP request head (its lines up to
// "Content-Length: "), the length and the tools/call body with id.
func (s *session) appendCallRequest(b, head []byte, id int64) []byte {
	n := len(callPrefix) + len(s.call) + digits(id)
	b = append(b, head...)
	b = strconv.AppendInt(b, int64(n), 10)
	b = append(b, "\r\n\r\n"...)
	b = append(b, callPrefix...)
	b = strconv.AppendInt(b, id, 10)
	return append(b, s.call...)
}

// digits is the length of id in decimal.
func digits(id int64) int {
	var b [20]byte
	return len(strconv.AppendInt(b[:0], id, 10))
}

// stopWatching stops the cancellation watch of the current connection.
func (c *rawCaller) stopWatching() {
	if c.unwatch != nil {
		c.unwatch()
	}
	c.watched, c.unwatch = nil, nil
}

// close closes the connection, if any.
func (c *rawCaller) close() {
	c.stopWatching()
	if c.conn != nil {
		_ = c.conn.Close()
		c.conn, c.br = nil, nil
	}
}

// answer is one HTTP response as [readAnswer] reads it. Its slices are
// reused by the next read.
type answer struct {
	status int
	ctype  []byte // Content-Type's value
	body   []byte
	close  bool // the server closes the connection after it
}

// maxHeaderLines bounds the header lines of one answer.
const maxHeaderLines = 100

// readAnswer reads one HTTP/1.x response from br into a: its status, the
// headers that frame it, and its body (Content-Length or chunked; at most
// maxAnswer bytes). An answer framed any other way is an error.
func readAnswer(br *bufio.Reader, a *answer) error {
	line, err := br.ReadSlice('\n')
	if err != nil {
		return fmt.Errorf("status line: %w", err)
	}
	ok := len(line) >= 13 && (bytes.HasPrefix(line, []byte("HTTP/1.1 ")) || bytes.HasPrefix(line, []byte("HTTP/1.0 "))) &&
		bytes.ContainsAny(line[12:13], " \r\n")
	if !ok {
		return fmt.Errorf("bad status line %q", line)
	}
	if a.status = int(decimal(line[9:12])); a.status < 100 {
		return fmt.Errorf("bad status line %q", line)
	}
	http10 := line[7] == '0' // line is the reader's buffer: read it before the headers
	a.close, a.ctype, a.body = http10, a.ctype[:0], a.body[:0]
	length, chunked, err := readHeaders(br, a)
	if err != nil {
		return err
	}
	switch {
	case chunked && http10: // net/http ignores it and reads to the end of the connection
		return errors.New("Transfer-Encoding in an HTTP/1.0 answer")
	case a.status < 200 || a.status == 204 || a.status == 304:
		return nil
	case chunked:
		return readChunked(br, a)
	case length < 0:
		return errors.New("answer without Content-Length or chunked encoding")
	}
	a.body = grow(a.body, int(length))
	_, err = io.ReadFull(br, a.body)
	return err
}

// readHeaders reads header lines up to the blank line, keeping in a the
// content type and whether the connection closes, and returns the
// Content-Length (-1 if none) and whether the body is chunked.
func readHeaders(br *bufio.Reader, a *answer) (length int64, chunked bool, err error) {
	length = -1
	for range maxHeaderLines {
		line, err := br.ReadSlice('\n')
		if err != nil {
			return 0, false, fmt.Errorf("header: %w", err)
		}
		line = bytes.TrimRight(line, "\r\n")
		if len(line) == 0 {
			return length, chunked, nil
		}
		name, value, ok := bytes.Cut(line, []byte(":"))
		if !ok || !token(name) || !fieldValue(value) {
			return 0, false, fmt.Errorf("bad header line %q", line)
		}
		value = bytes.TrimSpace(value)
		switch {
		case bytes.EqualFold(name, []byte("Content-Length")):
			if length = decimal(value); length < 0 || length > maxAnswer {
				return 0, false, fmt.Errorf("bad Content-Length %q", value)
			}
		case bytes.EqualFold(name, []byte("Transfer-Encoding")):
			if !bytes.EqualFold(value, []byte("chunked")) {
				return 0, false, fmt.Errorf("unsupported Transfer-Encoding %q", value)
			}
			chunked = true
		case bytes.EqualFold(name, []byte("Content-Type")):
			a.ctype = append(a.ctype[:0], value...)
		case bytes.EqualFold(name, []byte("Connection")):
			a.close = a.close || bytes.EqualFold(value, []byte("close"))
		}
	}
	return 0, false, fmt.Errorf("more than %d header lines", maxHeaderLines)
}

// token reports whether b is an HTTP token (RFC 9110), as a header name must be.
func token(b []byte) bool {
	for _, c := range b {
		if c <= ' ' || c >= 0x7f || strings.IndexByte(`"(),/:;<=>?@[\]{}`, c) >= 0 {
			return false
		}
	}
	return len(b) > 0
}

// fieldValue reports whether b holds no control character but tabs.
func fieldValue(b []byte) bool {
	for _, c := range b {
		if c < ' ' && c != '\t' || c == 0x7f {
			return false
		}
	}
	return true
}

// decimal is the value of b, one to 10 decimal digits, or -1.
func decimal(b []byte) int64 {
	if len(b) == 0 || len(b) > 10 {
		return -1
	}
	var n int64
	for _, c := range b {
		if c < '0' || c > '9' {
			return -1
		}
		n = n*10 + int64(c-'0')
	}
	return n
}

// readChunked appends a chunked body to a.body. It is at least as strict
// as net/http's chunked reader: each chunk-size line ends in CRLF with no
// other CR, holds one to 16 hex digits before any extension, and is
// shorter than 4 KiB; each chunk's data is followed by exactly CRLF. The
// trailers, if any, are read as net/http reads them (see readTrailers).
func readChunked(br *bufio.Reader, a *answer) error {
	for {
		n, err := readChunkSize(br)
		if err != nil {
			return err
		}
		if n > uint64(maxAnswer-len(a.body)) {
			return fmt.Errorf("chunk of %d bytes: answer over %d bytes", n, maxAnswer)
		}
		if n == 0 {
			return readTrailers(br)
		}
		start := len(a.body)
		a.body = grow(a.body, start+int(n))
		if _, err := io.ReadFull(br, a.body[start:]); err != nil {
			return err
		}
		var crlf [2]byte
		if _, err := io.ReadFull(br, crlf[:]); err != nil || string(crlf[:]) != "\r\n" {
			return fmt.Errorf("chunk without its CRLF: %q %v", crlf, err)
		}
	}
}

// readTrailers reads what follows a chunked body's last chunk: a CRLF, or
// trailer lines up to a blank line, which net/http reads only when a
// CRLFCRLF is already in its buffer (a bound on their size).
func readTrailers(br *bufio.Reader) error {
	if end, err := br.Peek(2); err == nil && string(end) == "\r\n" {
		_, err = br.Discard(2)
		return err
	}
	for size := 4; ; size++ {
		ahead, err := br.Peek(size)
		if bytes.HasSuffix(ahead, []byte("\r\n\r\n")) {
			break
		}
		if err != nil {
			return fmt.Errorf("chunked body without its final CRLF: %w", err)
		}
	}
	_, _, err := readHeaders(br, &answer{})
	return err
}

// maxChunkLine bounds a chunk-size line without its CRLF, as net/http does.
const maxChunkLine = 4096

// readChunkSize reads one chunk-size line and returns the size it gives.
func readChunkSize(br *bufio.Reader) (uint64, error) {
	line, err := br.ReadSlice('\n')
	if err != nil {
		return 0, fmt.Errorf("chunk size: %w", err)
	}
	if bytes.IndexByte(line, '\r') != len(line)-2 || len(line)-2 >= maxChunkLine {
		return 0, fmt.Errorf("bad chunk-size line %q", line)
	}
	size, _, _ := bytes.Cut(bytes.TrimRight(line, " \t\r\n"), []byte(";"))
	if len(size) == 0 || len(size) > 16 {
		return 0, fmt.Errorf("bad chunk size %q", line)
	}
	var n uint64
	for _, c := range size {
		d, ok := hexDigit(c)
		if !ok {
			return 0, fmt.Errorf("bad chunk size %q", line)
		}
		n = n<<4 | uint64(d)
	}
	return n, nil
}

// hexDigit is the value of the hexadecimal digit c.
func hexDigit(c byte) (byte, bool) {
	switch {
	case '0' <= c && c <= '9':
		return c - '0', true
	case 'a' <= c && c <= 'f':
		return c - 'a' + 10, true
	case 'A' <= c && c <= 'F':
		return c - 'A' + 10, true
	}
	return 0, false
}

// grow returns b resized to n bytes, reusing its array when it is large enough.
func grow(b []byte, n int) []byte {
	if cap(b) < n {
		nb := make([]byte, n, max(n, 2*cap(b)))
		copy(nb, b)
		return nb
	}
	return b[:n]
}
