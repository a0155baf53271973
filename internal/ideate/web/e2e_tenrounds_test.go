package web_test

import (
	"bufio"
	"bytes"
	"encoding/json"
	"fmt"
	"math"
	"net/http"
	"strings"
	"testing"

	"github.com/paige-dev/paige/internal/llm/llmtest"
)

// The ten-round session of TestBrowserFlow: driven over the HTTP API (not
// the browser) so the report's lineage graph can be checked at 10 rounds.
// Each round k ≥ 2 evolves the previous one: A is mutated from A, B is
// combined from C (with an element of B), C is mutated from B.

const (
	tenProblem = "Ten rounds: how might a two-person support team keep up with a product used by 40,000 people?"
	tenRounds  = 10
	tenWinner  = 1 // index of the winner in round 10
)

var tenBases = [3]string{"Bug radar", "Macro bank", "Fix forum"}

func tenTitle(round, i int) string { return fmt.Sprintf("%s v%d", tenBases[i], round) }

// tenScore is the user's score of premise i in round k.
func tenScore(k, i int) float64 {
	return math.Round((4.5+0.3*float64(k)+0.7*float64(i))*10) / 10
}

// tenRequests is how many model calls the ten-round session makes: 4 for
// round 1, 3 for each later round, 1 for the final spec.
const tenRequests = 4 + 3*(tenRounds-1) + 1

// tenReply answers the n-th model call (n assistant turns so far).
func tenReply(n int) (llmtest.Response, bool) {
	switch {
	case n == 0:
		return msg(use("decompose_problem", map[string]any{"problem_statement": "Scale support", "dimensions": []string{"volume", "team"}}),
			use("map_conventional_approaches", map[string]any{"approaches": []map[string]any{{"name": "Hire", "limitations": "cost"}}}),
			use("extract_hidden_axioms", map[string]any{"axioms": []map[string]any{{"axiom": axiom, "why_assumed": "habit"}}})), true
	case n == 1:
		return generate([]string{tenTitle(1, 0), tenTitle(1, 1), tenTitle(1, 2)}, "initial"), true
	case n == tenRequests-1:
		return msg(use("generate_final_spec", map[string]any{
			"winning_premise_title": tenTitle(tenRounds, tenWinner), "winning_premise_body": "Body",
			"problem_statement": "Scale support", "evolution_summary": "Ten rounds",
			"spec_content": "# Spec: " + tenTitle(tenRounds, tenWinner) + "\n\nTen rounds of evolution.\n"})), true
	case n >= tenRequests:
		return llmtest.Response{}, false
	}
	k, step := 2+(n-4)/3, (n-4)%3 // round k ≥ 2 after round 1's four calls
	if n < 4 {
		k, step = 1, n-1 // n = 2: obviousness, n = 3: present
	}
	switch step {
	case 0:
		return evolve(k), true
	case 1:
		return obviousness([]string{tenTitle(k, 0), tenTitle(k, 1), tenTitle(k, 2)}), true
	}
	return present(fmt.Sprintf("Round %d.", k)), true
}

// evolve fetches the negative context and derives round k from round k-1.
func evolve(k int) llmtest.Response {
	p := k - 1
	return msg(use("get_negative_context", map[string]any{}),
		use("mutate_premise", map[string]any{"source_title": tenTitle(p, 0), "source_body": "b", "title": tenTitle(k, 0),
			"body": "Body of " + tenTitle(k, 0) + ".", "premise_type": "conservative", "mutation_strength": 0.4}),
		use("cross_pollinate", map[string]any{"primary_title": tenTitle(p, 2), "primary_body": "b",
			"title": tenTitle(k, 1), "body": "Body of " + tenTitle(k, 1) + ".", "premise_type": "combination",
			"synthesis_strategy": "merge",
			"secondary_premises": []map[string]any{{"title": tenTitle(p, 1), "element_to_extract": "the shared bank"}}}),
		use("mutate_premise", map[string]any{"source_title": tenTitle(p, 1), "source_body": "b", "title": tenTitle(k, 2),
			"body": "Body of " + tenTitle(k, 2) + ".", "premise_type": "conservative", "mutation_strength": 0.6}))
}

// driveTenRounds creates the ten-round session over the API, scores every
// round, resolves round 10 and returns the session id.
func driveTenRounds(t *testing.T, base string) string {
	t.Helper()
	var created struct{ ID string }
	post(t, base+"/api/v1/sessions", map[string]any{"problem": tenProblem}, &created)
	res, err := http.Get(base + "/api/v1/sessions/" + created.ID + "/stream")
	if err != nil {
		t.Fatal(err)
	}
	for k := 1; ; k++ {
		ids := premiseIDs(t, res)
		if len(ids) != 3 {
			t.Fatalf("round %d: %d premises", k, len(ids))
		}
		var body map[string]any
		if k < tenRounds {
			var scores []map[string]any
			for i, id := range ids {
				scores = append(scores, map[string]any{"premise_id": id, "score": tenScore(k, i)})
			}
			body = map[string]any{"type": "scores", "scores": scores}
		} else {
			body = map[string]any{"type": "resolved", "winner": map[string]any{"index": tenWinner, "score": tenScore(k, tenWinner)}}
		}
		res = postStream(t, base+"/api/v1/sessions/"+created.ID+"/user-input", body)
		if k == tenRounds {
			if ids := premiseIDs(t, res); len(ids) != 0 {
				t.Fatalf("after resolving: premises %v", ids)
			}
			return created.ID
		}
	}
}

// premiseIDs reads an SSE body to its end and returns the ids of its
// premises event; an error event fails the test.
func premiseIDs(t *testing.T, res *http.Response) []string {
	t.Helper()
	defer res.Body.Close()
	if res.StatusCode != http.StatusOK {
		t.Fatalf("stream: %s", res.Status)
	}
	var ids []string
	sc := bufio.NewScanner(res.Body)
	sc.Buffer(make([]byte, 1<<20), 8<<20)
	for sc.Scan() {
		data, ok := strings.CutPrefix(sc.Text(), "data: ")
		if !ok {
			continue
		}
		var ev struct {
			Type string          `json:"type"`
			Data json.RawMessage `json:"data"`
		}
		if err := json.Unmarshal([]byte(data), &ev); err != nil {
			t.Fatalf("bad SSE data %q: %v", data, err)
		}
		switch ev.Type {
		case "error":
			t.Fatalf("ten-round session: error event %s", ev.Data)
		case "premises":
			var ps []struct{ ID string }
			if err := json.Unmarshal(ev.Data, &ps); err != nil {
				t.Fatal(err)
			}
			ids = nil
			for _, p := range ps {
				ids = append(ids, p.ID)
			}
		}
	}
	return ids
}

func post(t *testing.T, url string, body, out any) {
	t.Helper()
	res := postStream(t, url, body)
	defer res.Body.Close()
	if res.StatusCode != http.StatusCreated && res.StatusCode != http.StatusOK {
		t.Fatalf("POST %s: %s", url, res.Status)
	}
	if err := json.NewDecoder(res.Body).Decode(out); err != nil {
		t.Fatal(err)
	}
}

func postStream(t *testing.T, url string, body any) *http.Response {
	t.Helper()
	raw, _ := json.Marshal(body)
	res, err := http.Post(url, "application/json", bytes.NewReader(raw))
	if err != nil {
		t.Fatal(err)
	}
	return res
}
