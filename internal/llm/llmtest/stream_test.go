package llmtest_test

import (
	"context"
	"errors"
	"testing"

	"github.com/anthropics/anthropic-sdk-go"
	"github.com/google/go-cmp/cmp"

	"github.com/paige-dev/paige/internal/llm/llmtest"
)

// blockView is the comparable part of a content block.
type blockView struct {
	Type, Text, ID, Name, Input, ToolUseID string
}

func view(m anthropic.Message) []blockView {
	var out []blockView
	for _, b := range m.Content {
		v := blockView{Type: b.Type, Text: b.Text, ID: b.ID, Name: b.Name, ToolUseID: b.ToolUseID}
		if b.Type == "tool_use" || b.Type == "server_tool_use" {
			v.Input = string(b.Input)
		}
		out = append(out, v)
	}
	return out
}

func TestStreamingAccumulatesToSameMessage(t *testing.T) {
	tests := []struct {
		name string
		resp llmtest.Response
	}{
		{"text", llmtest.Text("héllo, streaming wörld").WithUsage(20, 7)},
		{"json", llmtest.JSON(map[string]any{"phases": []any{map[string]any{"n": 1}}})},
		{"tool use", llmtest.ToolUse("toolu_9", "establish_dialectic", map[string]any{"thesis": "a", "antithesis": "b"})},
		{"web search", webSearchReply()},
		{"refusal", llmtest.Text("I can't").WithStop("refusal")},
		{"max tokens", llmtest.Text(`{"trunc`).WithStop("max_tokens")},
		{"pause turn", llmtest.Message("pause_turn", llmtest.ServerToolUseBlock("srvtoolu_2", "web_search", map[string]any{"query": "q"}))},
		{"empty text", llmtest.Text("")},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			s := llmtest.NewServer(t)
			c := newClient(t, s, 0)
			s.Enqueue(tt.resp, tt.resp)

			whole, err := c.Messages.New(context.Background(), params("x"))
			if err != nil {
				t.Fatal(err)
			}
			stream := c.Messages.NewStreaming(context.Background(), params("x"))
			var acc anthropic.Message
			events := 0
			for stream.Next() {
				if err := acc.Accumulate(stream.Current()); err != nil {
					t.Fatalf("accumulate: %v", err)
				}
				events++
			}
			if err := stream.Err(); err != nil {
				t.Fatalf("stream: %v", err)
			}
			if diff := cmp.Diff(view(*whole), view(acc)); diff != "" {
				t.Errorf("content (-whole +streamed):\n%s", diff)
			}
			if whole.StopReason != acc.StopReason {
				t.Errorf("stop_reason: got %q, want %q", acc.StopReason, whole.StopReason)
			}
			if whole.Usage.InputTokens != acc.Usage.InputTokens || whole.Usage.OutputTokens != acc.Usage.OutputTokens {
				t.Errorf("usage: got %d/%d, want %d/%d", acc.Usage.InputTokens, acc.Usage.OutputTokens,
					whole.Usage.InputTokens, whole.Usage.OutputTokens)
			}
			if events < 4 {
				t.Errorf("events: got %d, want a real event stream", events)
			}
			if reqs := s.Requests(); !reqs[1].Stream || reqs[0].Stream {
				t.Errorf("stream flag: got %v/%v, want false/true", reqs[0].Stream, reqs[1].Stream)
			}
		})
	}
}

func TestStreamingTextArrivesInDeltas(t *testing.T) {
	s := llmtest.NewServer(t)
	c := newClient(t, s, 0)
	s.Enqueue(llmtest.Text("one two three four"))
	stream := c.Messages.NewStreaming(context.Background(), params("x"))
	var deltas []string
	for stream.Next() {
		ev := stream.Current()
		if ev.Type == "content_block_delta" && ev.Delta.Type == "text_delta" {
			deltas = append(deltas, ev.Delta.Text)
		}
	}
	if err := stream.Err(); err != nil {
		t.Fatal(err)
	}
	if len(deltas) < 2 {
		t.Errorf("text deltas: got %q, want several", deltas)
	}
}

func TestStreamingError(t *testing.T) {
	s := llmtest.NewServer(t)
	c := newClient(t, s, 0)
	s.Enqueue(llmtest.Error(529, "overloaded_error", "Overloaded"))
	stream := c.Messages.NewStreaming(context.Background(), params("x"))
	for stream.Next() {
		t.Fatalf("unexpected event %v", stream.Current().Type)
	}
	if stream.Err() == nil {
		t.Fatal("got nil error, want overloaded")
	}
}

func TestStreamErrorMidStream(t *testing.T) {
	s := llmtest.NewServer(t)
	c := newClient(t, s, 0)
	s.Enqueue(llmtest.Text("partial answer").WithStreamError("overloaded_error", "Overloaded"))
	stream := c.Messages.NewStreaming(context.Background(), params("x"))
	var acc anthropic.Message
	for stream.Next() {
		_ = acc.Accumulate(stream.Current())
	}
	err := stream.Err()
	var apiErr *anthropic.Error
	if !errors.As(err, &apiErr) || apiErr.Type() != "overloaded_error" {
		t.Fatalf("got %v (%T), want the mid-stream overloaded error", err, err)
	}
	if len(acc.Content) != 1 || acc.Content[0].Text == "" || acc.Content[0].Text == "partial answer" {
		t.Errorf("accumulated before the error: got %+v, want a partial text block", acc.Content)
	}
}
