package cli

import (
	"context"
	"fmt"
	"net"
	"net/http"
	"strconv"
	"strings"

	"github.com/modelcontextprotocol/go-sdk/mcp"
)

// unreachableError is a failure to reach the server at all.
type unreachableError struct{ err error }

func (u *unreachableError) Error() string { return "server unreachable: " + u.err.Error() }
func (u *unreachableError) Unwrap() error { return u.err }

// callEndSession calls paige_end_session on the server at port and returns
// its answer as text (the tool's structured result, or its error text).
func callEndSession(ctx context.Context, port int, text string) (string, error) {
	client := mcp.NewClient(&mcp.Implementation{Name: "paige-session-end-hook", Version: "1"}, nil)
	endpoint := "http://" + net.JoinHostPort("127.0.0.1", strconv.Itoa(port)) + "/mcp"
	cs, err := client.Connect(ctx, &mcp.StreamableClientTransport{Endpoint: endpoint, HTTPClient: &http.Client{}}, nil)
	if err != nil {
		return "", &unreachableError{err}
	}
	defer cs.Close()
	res, err := cs.CallTool(ctx, &mcp.CallToolParams{Name: "paige_end_session", Arguments: map[string]any{"sessionTranscript": text}})
	if err != nil {
		// The server went away or the call broke: queue it. The next
		// serve runs it on the session still active, and does nothing if
		// this call did finish (a session is wrapped up once).
		return "", &unreachableError{fmt.Errorf("paige_end_session: %w", err)}
	}
	var parts []string
	for _, c := range res.Content {
		if t, ok := c.(*mcp.TextContent); ok {
			parts = append(parts, t.Text)
		}
	}
	out := strings.Join(parts, " ")
	if res.IsError {
		return "not run: " + out, nil // no active session, or offline: the server keeps the session
	}
	return out, nil
}
