// Package chat is learn's chat: sessions and messages in learn.db, each
// reply generated with the system prompt the context assembler builds from
// preprompts and learned knowledge, by Claude or an Ollama model, whole or
// streamed. Token counts of every reply are stored with it. Session names
// and message contents are redacted (internal/redact) before they are
// stored, so the history sent to the model carries no secret either.
package chat

import (
	"context"
	"database/sql"
	"errors"
	"fmt"
	"strings"
	"time"

	"github.com/google/uuid"

	"github.com/paige-dev/paige/internal/learn/learncontext"
	"github.com/paige-dev/paige/internal/redact"
	"github.com/paige-dev/paige/internal/sqlite"
)

// Errors of the chat service.
var (
	// ErrNotFound is returned for an unknown session id.
	ErrNotFound = errors.New("chat: session not found")
	// ErrEmpty is returned for a message without text.
	ErrEmpty = errors.New("chat: message is empty")
)

// MaxMessageBytes bounds one user message.
const MaxMessageBytes = 256 << 10

// MaxHistory is how many of a session's latest messages go to the model.
const MaxHistory = 40

// Session is one conversation.
type Session struct {
	ID        string `json:"id"`
	Name      string `json:"name"`
	CreatedAt string `json:"createdAt"`
}

// Message is one stored message. TokenCount is input plus output tokens of
// an assistant reply; user messages have zero counts.
type Message struct {
	ID           string `json:"id"`
	SessionID    string `json:"sessionId"`
	Role         string `json:"role"`
	Content      string `json:"content"`
	Model        string `json:"model,omitempty"`
	TokenCount   int64  `json:"tokenCount"`
	InputTokens  int64  `json:"inputTokens"`
	OutputTokens int64  `json:"outputTokens"`
	CreatedAt    string `json:"createdAt"`
}

// Service runs chats. DB is learn.db (see learndb); Assembler builds the
// system prompt for every reply; Model answers. It is safe for concurrent use.
type Service struct {
	DB        *sql.DB
	Assembler *learncontext.Assembler
	Model     Model
	Now       func() time.Time // nil means time.Now
}

func (s *Service) now() string {
	if s.Now != nil {
		return sqlite.FormatTime(s.Now())
	}
	return sqlite.Now()
}

func newID() string { return uuid.Must(uuid.NewV7()).String() }

// CreateSession starts a session; an empty name becomes "New chat".
func (s *Service) CreateSession(ctx context.Context, name string) (Session, error) {
	name = strings.TrimSpace(redact.String(name))
	if name == "" {
		name = "New chat"
	}
	ss := Session{ID: newID(), Name: name, CreatedAt: s.now()}
	if _, err := s.DB.ExecContext(ctx, `INSERT INTO sessions (id, name, created_at) VALUES (?, ?, ?)`, ss.ID, ss.Name, ss.CreatedAt); err != nil {
		return ss, fmt.Errorf("create session: %w", err)
	}
	return ss, nil
}

// Sessions lists the sessions, newest first.
func (s *Service) Sessions(ctx context.Context) ([]Session, error) {
	return sqlite.QueryAll(ctx, s.DB, "list sessions", `SELECT id, name, created_at FROM sessions ORDER BY rowid DESC`, nil,
		func(row sqlite.Scanner) (Session, error) {
			var ss Session
			err := row.Scan(&ss.ID, &ss.Name, &ss.CreatedAt)
			return ss, err
		})
}

// Messages returns the messages of session id in order, or ErrNotFound.
func (s *Service) Messages(ctx context.Context, id string) ([]Message, error) {
	var one int
	if err := s.DB.QueryRowContext(ctx, `SELECT 1 FROM sessions WHERE id = ?`, id).Scan(&one); errors.Is(err, sql.ErrNoRows) {
		return nil, ErrNotFound
	} else if err != nil {
		return nil, fmt.Errorf("find session: %w", err)
	}
	return sqlite.QueryAll(ctx, s.DB, "list messages", `SELECT id, session_id, role, content, COALESCE(model, ''), token_count, input_tokens, output_tokens, created_at
		FROM messages WHERE session_id = ? ORDER BY rowid`, []any{id}, func(row sqlite.Scanner) (Message, error) {
		var m Message
		err := row.Scan(&m.ID, &m.SessionID, &m.Role, &m.Content, &m.Model, &m.TokenCount, &m.InputTokens, &m.OutputTokens, &m.CreatedAt)
		return m, err
	})
}

// insert stores m, its content redacted (internal/redact): the one write
// of chat history, so no secret is kept or sent back to a model with the
// history.
func (s *Service) insert(ctx context.Context, m Message) (Message, error) {
	m.ID, m.CreatedAt = newID(), s.now()
	m.Content = redact.String(m.Content)
	var model any
	if m.Model != "" {
		model = m.Model
	}
	_, err := s.DB.ExecContext(ctx, `INSERT INTO messages (id, session_id, role, content, model, token_count, input_tokens, output_tokens, created_at)
		VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?)`, m.ID, m.SessionID, m.Role, m.Content, model, m.TokenCount, m.InputTokens, m.OutputTokens, m.CreatedAt)
	if err != nil {
		return m, fmt.Errorf("store message: %w", err)
	}
	return m, nil
}

// prepare stores the user message and returns the system prompt and the
// history to send.
func (s *Service) prepare(ctx context.Context, id, text string) (string, []Turn, error) {
	text = strings.TrimSpace(text)
	if text == "" {
		return "", nil, ErrEmpty
	}
	if len(text) > MaxMessageBytes {
		return "", nil, fmt.Errorf("chat: message longer than %d bytes", MaxMessageBytes)
	}
	if _, err := s.Messages(ctx, id); err != nil {
		return "", nil, err
	}
	if _, err := s.insert(ctx, Message{SessionID: id, Role: "user", Content: text}); err != nil {
		return "", nil, err
	}
	msgs, err := s.Messages(ctx, id)
	if err != nil {
		return "", nil, err
	}
	history := make([]Turn, 0, len(msgs))
	for _, m := range msgs {
		history = append(history, Turn{Role: m.Role, Content: m.Content})
	}
	history = Recent(history, MaxHistory)
	asm, err := s.Assembler.Assemble(ctx)
	if err != nil {
		return "", nil, err
	}
	return asm.SystemPrompt, history, nil
}

// Recent returns the last n turns of history, dropped further so that it
// starts with a user turn (the Messages API requires it).
func Recent(history []Turn, n int) []Turn {
	if len(history) > n {
		history = history[len(history)-n:]
	}
	for len(history) > 0 && history[0].Role != "user" {
		history = history[1:]
	}
	return history
}

func (s *Service) store(ctx context.Context, id string, r Reply) (Message, error) {
	model := r.Model
	if model == "" {
		model = s.Model.Name()
	}
	return s.insert(context.WithoutCancel(ctx), Message{SessionID: id, Role: "assistant", Content: r.Text, Model: model,
		InputTokens: r.InputTokens, OutputTokens: r.OutputTokens, TokenCount: r.InputTokens + r.OutputTokens})
}

// Send stores the user's text in session id, asks the model with the
// assembled context and the whole history, and stores and returns the
// reply. When the model fails, the user message stays and the error is
// returned.
func (s *Service) Send(ctx context.Context, id, text string) (Message, error) {
	system, history, err := s.prepare(ctx, id, text)
	if err != nil {
		return Message{}, err
	}
	r, err := s.Model.Reply(ctx, system, history)
	if err != nil {
		return Message{}, err
	}
	return s.store(ctx, id, r)
}

// Stream is [Service.Send] with the reply streamed to onDelta as it is
// generated. The reply is stored only when the stream completes.
func (s *Service) Stream(ctx context.Context, id, text string, onDelta func(string) error) (Message, error) {
	system, history, err := s.prepare(ctx, id, text)
	if err != nil {
		return Message{}, err
	}
	r, err := s.Model.Stream(ctx, system, history, onDelta)
	if err != nil {
		return Message{}, err
	}
	return s.store(ctx, id, r)
}
