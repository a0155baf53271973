package llmtest

import (
	"encoding/json"
	"fmt"
	"net/http"
)

// writeSSE renders msg as the Messages API's stream: message_start,
// content_block_start/delta/stop per block (text_delta for text,
// input_json_delta for tool input), message_delta with stop_reason and usage,
// and message_stop. Accumulating the events yields msg. A non-empty streamErr
// (type, message) ends the stream with an error event after the first delta.
func writeSSE(w http.ResponseWriter, msg wireMessage, streamErr [2]string) {
	w.Header().Set("Content-Type", "text/event-stream")
	w.Header().Set("Cache-Control", "no-cache")
	w.WriteHeader(http.StatusOK)
	flusher, _ := w.(http.Flusher)
	send := func(event string, data any) {
		b, _ := json.Marshal(data)
		fmt.Fprintf(w, "event: %s\ndata: %s\n\n", event, b)
		if flusher != nil {
			flusher.Flush()
		}
	}
	start := msg
	start.Content = []map[string]any{}
	start.StopReason = nil
	start.StopSequence = nil
	start.Usage = wireUsage{InputTokens: msg.Usage.InputTokens, OutputTokens: 1}
	send("message_start", map[string]any{"type": "message_start", "message": start})
	send("ping", map[string]any{"type": "ping"})
	for i, b := range msg.Content {
		first, deltas := blockEvents(b)
		send("content_block_start", map[string]any{"type": "content_block_start", "index": i, "content_block": first})
		for _, d := range deltas {
			send("content_block_delta", map[string]any{"type": "content_block_delta", "index": i, "delta": d})
			if streamErr[0] != "" {
				send("error", map[string]any{"type": "error", "error": map[string]string{"type": streamErr[0], "message": streamErr[1]}})
				return
			}
		}
		send("content_block_stop", map[string]any{"type": "content_block_stop", "index": i})
	}
	send("message_delta", map[string]any{
		"type":  "message_delta",
		"delta": map[string]any{"stop_reason": msg.StopReason, "stop_sequence": msg.StopSequence},
		"usage": msg.Usage,
	})
	send("message_stop", map[string]any{"type": "message_stop"})
}

// blockEvents splits a content block into its start form and its deltas.
// Blocks without a delta form (e.g. web_search_tool_result) start whole.
func blockEvents(b map[string]any) (map[string]any, []map[string]any) {
	first := make(map[string]any, len(b))
	for k, v := range b {
		first[k] = v
	}
	switch b["type"] {
	case "text":
		first["text"] = ""
		var deltas []map[string]any
		for _, part := range split(b["text"].(string)) {
			deltas = append(deltas, map[string]any{"type": "text_delta", "text": part})
		}
		return first, deltas
	case "tool_use", "server_tool_use":
		first["input"] = map[string]any{}
		in, _ := json.Marshal(b["input"])
		var deltas []map[string]any
		for _, part := range split(string(in)) {
			deltas = append(deltas, map[string]any{"type": "input_json_delta", "partial_json": part})
		}
		return first, deltas
	}
	return first, nil
}

// split cuts s into up to three pieces at rune boundaries, so tests see
// several deltas per block.
func split(s string) []string {
	runes := []rune(s)
	if len(runes) < 3 {
		return []string{s}
	}
	a, b := len(runes)/3, 2*len(runes)/3
	return []string{string(runes[:a]), string(runes[a:b]), string(runes[b:])}
}
