// Package wsapi is the editor-facing WebSocket protocol of the coaching
// server: the message envelope, the catalog of every message type with its
// Go payload type, the router table that dispatches client messages to
// handlers, and the [Hub] that broadcasts server messages to every client.
//
// # Invariants
//
//   - Outside input never crashes the server or drops the connection:
//     malformed JSON, a missing type or an invalid payload is answered with
//     connection:error to the sender (EC-22, EC-23); an unknown type is
//     logged and ignored (FR-060); a handler panic is recovered and answered
//     with INTERNAL_ERROR.
//   - A message larger than [Options.MaxMessageBytes] is discarded and
//     answered with connection:error MESSAGE_TOO_LARGE; the connection stays
//     open. Only a message beyond 4× that limit closes it (1009).
//   - A payload with a field over its limit (package limits: path length
//     and depth, content and text sizes, list lengths) is answered with
//     connection:error LIMIT_EXCEEDED {field, limit, actual} before its
//     handler runs.
//   - A slow client is sent the latest state, not disconnected: state
//     messages waiting for it are coalesced (see [Hub]). This reads FR-058
//     ("broadcast MUST send to all connected clients") as "every client
//     gets the latest of each state": a version superseded before a slow
//     client was sent it is not sent. Watcher bursts
//     reach no queue: [ForwardTreeUpdates] sends a bounded number of
//     fs:tree_update per second and one fs:tree refresh for a burst.
//   - Messages of one connection are handled in arrival order.
//   - The Server checks no Origin or Host itself: it is served behind the
//     one origin/host policy (server.Policy, applied by server.Serve to
//     every route), which refuses cross-site pages, Origin: null and
//     DNS-rebinding Hosts before the upgrade.
//   - Replies to one request (connection:init, connection:error) go to the
//     sender only; state changes (fs:content, fs:save_ack, session:*) are
//     broadcast to every client (D26) and carry the request's id.
package wsapi

import (
	"context"
	"errors"
	"fmt"
	"io"
	"log/slog"
	"net/http"
	"time"

	"github.com/coder/websocket"

	"github.com/paige-dev/paige/internal/coach"
	"github.com/paige-dev/paige/internal/coach/limits"
	"github.com/paige-dev/paige/internal/coach/session"
)

// DefaultMaxMessageBytes is the largest client message handled (16 MiB):
// buffer:update and file:save carry whole files.
const DefaultMaxMessageBytes = limits.MessageBytes

// Files is the file-system authority as the protocol needs it. Paths may be
// relative to PROJECT_DIR or absolute inside it; the returned path is the
// normalised project-relative form. Implementations reject paths outside
// the project before any I/O.
type Files interface {
	ReadFile(ctx context.Context, path string) (FileContent, error)
	WriteFile(ctx context.Context, path, content string) (string, error)
	// UpdateBuffer stores the editor's unsaved content (dirty) and updates
	// the buffer logging state of the active session. It receives the
	// whole decoded buffer:update payload, Content non-nil.
	UpdateBuffer(ctx context.Context, b BufferUpdate) (string, error)
	Tree(ctx context.Context) (*TreeNode, error)
}

// Options configure [New]. Files and Session are required.
type Options struct {
	Log     *slog.Logger // nil discards
	Hub     *Hub         // nil means a new hub
	Files   Files
	Session *session.Service
	// Extensions plug in the model-driven handlers (stories 9–12).
	Extensions Extensions
	// MaxMessageBytes: if zero, DefaultMaxMessageBytes.
	MaxMessageBytes int64
	// Version is the server version reported in connection:init.
	Version string
	// Issues, if non-nil, looks up an issue's title and summary when a
	// session starts with only its number.
	Issues IssueLookup
	// Terminal reports the workbench terminal's status for a /ws upgrade
	// request, sent in connection:init; nil means no terminal.
	Terminal func(r *http.Request) TerminalStatus
	// ModelConfigured is connection:init's featureFlags.model: false when
	// the server runs without a Claude key (model features then answer
	// "no model configured").
	ModelConfigured bool
}

// Server handles editor WebSocket connections. Create it with [New].
type Server struct {
	log     *slog.Logger
	hub     *Hub
	files   Files
	sess    *session.Service
	ext     Extensions
	max     int64
	version string
	issues  IssueLookup
	routes  map[string]Handler

	terminal func(*http.Request) TerminalStatus
	model    bool
}

// New returns a Server; it panics if Files or Session is nil (a wiring bug).
func New(opts Options) *Server {
	if opts.Files == nil || opts.Session == nil {
		panic("wsapi: Files and Session are required")
	}
	if opts.Log == nil {
		opts.Log = slog.New(slog.DiscardHandler)
	}
	if opts.Hub == nil {
		opts.Hub = NewHub(opts.Log, 0)
	}
	if opts.MaxMessageBytes <= 0 {
		opts.MaxMessageBytes = DefaultMaxMessageBytes
	}
	s := &Server{log: opts.Log, hub: opts.Hub, files: opts.Files, sess: opts.Session,
		ext: opts.Extensions, max: opts.MaxMessageBytes, version: opts.Version, issues: opts.Issues,
		terminal: opts.Terminal, model: opts.ModelConfigured}
	s.routes = s.routeTable()
	return s
}

// Hub returns the server's hub, for broadcasting from elsewhere (MCP tools,
// the watcher, the Observer).
func (s *Server) Hub() *Hub { return s.hub }

// ServeHTTP upgrades GET /ws and runs the connection until it closes.
func (s *Server) ServeHTTP(w http.ResponseWriter, r *http.Request) {
	// The origin policy in front of every route (server.Policy) has
	// checked Host and Origin; the library's own check would refuse the
	// origins the user listed (PAIGE_ALLOWED_ORIGINS).
	ws, err := websocket.Accept(w, r, &websocket.AcceptOptions{InsecureSkipVerify: true})
	if err != nil {
		s.log.Warn("websocket upgrade failed", "err", err)
		return
	}
	c := s.hub.add(ws)
	if c == nil {
		_ = ws.Close(websocket.StatusGoingAway, "server shutting down")
		return
	}
	defer s.hub.remove(c, websocket.StatusNormalClosure, "")
	c.termStatus = s.terminalStatus(r) // before the read loop, which alone reads it
	// The connection lives until the client or the hub closes it, not until
	// the server's base context is cancelled: shutdown closes the hub in
	// its own step, with "going away". Handlers get a context that ends
	// with the connection, so work done for it (model calls) is cancelled.
	ctx, cancel := context.WithCancel(context.WithoutCancel(r.Context()))
	defer cancel()
	s.readLoop(ctx, c)
}

func (s *Server) readLoop(ctx context.Context, c *Conn) {
	c.ws.SetReadLimit(4 * s.max)
	// The hub closing c makes Reader fail, which ends the loop. ctx must not
	// be cancelled for that: a cancelled read context makes the library drop
	// the connection without the close handshake (ctx ends only once this
	// loop has returned).
	size := 512 // the last frame's size: the next buffer starts there
	for {
		typ, rd, err := c.ws.Reader(ctx)
		if err != nil {
			return
		}
		frame, err := readAll(io.LimitReader(rd, s.max+1), size)
		if err != nil {
			return
		}
		size = len(frame) + 1
		if int64(len(frame)) > s.max {
			if _, err := io.Copy(io.Discard, rd); err != nil {
				return
			}
			s.log.Warn("websocket message too large", "conn", c.ID, "limit", s.max)
			s.sendError(c, "", &Error{Code: CodeMessageTooLarge,
				Message: fmt.Sprintf("message larger than %d bytes discarded", s.max)})
			continue
		}
		if typ != websocket.MessageText {
			s.sendError(c, "", &Error{Code: CodeInvalidMessage, Message: "binary frames are not supported; send JSON text"})
			continue
		}
		s.dispatch(ctx, c, frame)
	}
}

// dispatch routes one frame to the handler the route table gives its
// type. When "type" is the frame's first key the handler decodes the frame
// once (framedecode.go); otherwise [DecodeEnvelope] decodes it first.
func (s *Server) dispatch(ctx context.Context, c *Conn, frame []byte) {
	req := &Request{Conn: c, hub: s.hub}
	if typ, ok := peekType(frame); ok && s.routes[typ] != nil {
		req.Type, req.frame = typ, frame
	} else {
		env, err := DecodeEnvelope(frame)
		if err != nil {
			s.log.Warn("bad websocket message", "conn", c.ID, "err", err)
			code := CodeInvalidJSON
			if errors.Is(err, ErrMissingType) {
				code = CodeInvalidMessage
			}
			s.sendError(c, "", &Error{Code: code, Message: err.Error()})
			return
		}
		req.Envelope = env
	}
	h, ok := s.routes[req.Type]
	if !ok {
		s.log.Warn("unknown websocket message type ignored", "conn", c.ID, "type", req.Type)
		return
	}
	defer s.recoverHandler(c, req)
	start := time.Now()
	if err := h(ctx, req); err != nil {
		s.handlerError(c, req.Envelope, err)
	}
	s.log.Debug("websocket message handled", "type", req.Type, "took", time.Since(start))
}

// recoverHandler, deferred by dispatch, answers a handler panic with
// INTERNAL_ERROR.
func (s *Server) recoverHandler(c *Conn, req *Request) {
	if p := recover(); p != nil {
		env := req.Envelope
		s.log.Error("websocket handler panicked", "type", env.Type, "panic", p)
		s.sendError(c, env.ID, &Error{Code: CodeInternal, Message: "internal error", Context: map[string]any{"type": env.Type}})
	}
}

func (s *Server) handlerError(c *Conn, env Envelope, err error) {
	var we *Error
	if !errors.As(err, &we) {
		s.log.Error("websocket handler failed", "type", env.Type, "err", err)
		we = &Error{Code: CodeInternal, Message: "internal error"}
	} else {
		s.log.Warn("websocket request rejected", "type", env.Type, "code", we.Code, "err", we.Message)
	}
	if we.Context == nil {
		we.Context = map[string]any{}
	}
	we.Context["type"] = env.Type
	s.sendError(c, env.ID, we)
}

func (s *Server) sendError(c *Conn, id string, e *Error) {
	s.hub.Send(c, s.hub.envelope(TypeConnectionError, ConnectionError{Code: e.Code, Message: e.Message, Context: e.Context}, id))
}

// logAction logs against the active session (EC-17 when none) and returns
// once the row is committed; a failure is logged, never returned to the
// client, whose request itself succeeded and whose answer (if any) does not
// stand for the row. file:save, whose fs:save_ack does, checks the error
// itself (handleFileSave).
func (s *Server) logAction(ctx context.Context, t coach.ActionType, data any) {
	if err := s.sess.Log(ctx, t, data); err != nil {
		s.log.Error("cannot log action", "action", string(t), "err", err)
	}
}

// readAll is io.ReadAll starting with a buffer of size bytes: an editor's
// frames are about the size of the last one, so most are read into one
// allocation instead of growing from 512 bytes.
func readAll(r io.Reader, size int) ([]byte, error) {
	b := make([]byte, 0, size)
	for {
		n, err := r.Read(b[len(b):cap(b)])
		b = b[:len(b)+n]
		if err != nil {
			if err == io.EOF {
				err = nil
			}
			return b, err
		}
		if len(b) == cap(b) {
			b = append(b, 0)[:len(b)]
		}
	}
}
