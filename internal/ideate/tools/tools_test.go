package tools

import (
	"context"
	"encoding/json"
	"os"
	"path/filepath"
	"slices"
	"testing"

	"github.com/google/go-cmp/cmp"

	"github.com/paige-dev/paige/internal/ideate/core"
	"github.com/paige-dev/paige/internal/ideate/store"
)

func TestDefinitions(t *testing.T) {
	want := []string{
		"decompose_problem", "map_conventional_approaches", "extract_hidden_axioms",
		"generate_premise", "mutate_premise", "cross_pollinate",
		"challenge_axiom", "import_foreign_domain", "obviousness_test", "invert_problem",
		"ask_user", "present_round", "generate_final_spec",
		"store_premise", "query_premises", "get_negative_context", "get_context_usage",
	}
	var got []string
	for _, d := range All() {
		got = append(got, d.Name)
		if d.Description == "" || d.InputSchema["type"] != "object" || d.Category == "" {
			t.Errorf("%s: incomplete definition", d.Name)
		}
	}
	if diff := cmp.Diff(want, got); diff != "" {
		t.Errorf("names (-want +got):\n%s", diff)
	}
	names := NewDispatch().Names()
	slices.Sort(names)
	sorted := slices.Clone(want)
	slices.Sort(sorted)
	if diff := cmp.Diff(sorted, names); diff != "" {
		t.Errorf("dispatch table (-want +got):\n%s", diff)
	}
	required := map[string][]string{
		"decompose_problem":   {"problem_statement", "dimensions"},
		"mutate_premise":      {"source_title", "title", "body", "premise_type", "mutation_strength"},
		"cross_pollinate":     {"primary_title", "title", "body", "premise_type", "synthesis_strategy"},
		"obviousness_test":    {"premise_buffer_index", "premise_title", "obviousness_score", "justification"},
		"generate_final_spec": {"winning_premise_title", "winning_premise_body", "problem_statement", "spec_content"},
		"present_round":       {},
		"store_premise":       {"title", "premise_type", "round_number"},
	}
	for _, d := range All() {
		if r, ok := required[d.Name]; ok {
			if diff := cmp.Diff(r, d.InputSchema["required"]); diff != "" {
				t.Errorf("%s required (-want +got):\n%s", d.Name, diff)
			}
		}
	}
	if WebSearchMaxUses != 5 || WebSearchType != "web_search_20250305" {
		t.Errorf("web search got %s/%d", WebSearchType, WebSearchMaxUses)
	}
	for _, n := range want {
		if got, want := Pausing(n), n == "present_round" || n == "ask_user" || n == "generate_final_spec"; got != want {
			t.Errorf("Pausing(%s) got %v, want %v", n, got, want)
		}
	}
}

// harness runs tools through the dispatch against a real SQLite store.
type harness struct {
	t    testing.TB
	d    *Dispatch
	env  *Env
	repo *store.Store
}

func newHarness(t testing.TB) *harness {
	t.Helper()
	repo, err := store.OpenSQLite(context.Background(), filepath.Join(t.TempDir(), "gp.db"))
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { repo.Close() })
	id := store.NewID()
	if err := repo.CreateSession(context.Background(), core.Session{ID: id, Problem: "How might we cut churn?"}); err != nil {
		t.Fatal(err)
	}
	return &harness{t: t, d: NewDispatch(), repo: repo,
		env: &Env{SessionID: id, State: &core.State{}, Repo: repo, SpecDir: t.TempDir(), SpecURL: "/api/v1/sessions/" + id + "/spec"}}
}

func (h *harness) call(name string, input any) Result {
	h.t.Helper()
	b, _ := json.Marshal(input)
	return h.d.Execute(context.Background(), h.env, name, b)
}

func (h *harness) must(name string, input any, status string) Result {
	h.t.Helper()
	r := h.call(name, input)
	if r.Status() != status {
		h.t.Fatalf("%s: got %v, want status %s", name, r.Output, status)
	}
	return r
}

func (h *harness) gates() {
	h.must("decompose_problem", map[string]any{"problem_statement": "p", "dimensions": []string{"cost"}}, "ok")
	h.must("map_conventional_approaches", map[string]any{"approaches": []map[string]any{{"name": "discounts"}}}, "ok")
	h.must("extract_hidden_axioms", map[string]any{"axioms": []map[string]any{{"axiom": "Churn is bad"}}}, "ok")
}

func (h *harness) fillRound(prefix string) {
	for i := range 3 {
		h.must("generate_premise", map[string]any{"title": prefix + string(rune('A'+i)), "body": "b", "premise_type": "initial"}, "ok")
	}
	for i := range 3 {
		h.must("obviousness_test", map[string]any{"premise_buffer_index": i, "premise_title": "x", "obviousness_score": 0.3, "justification": "j"}, "ok")
	}
}

func code(r Result) core.Code {
	if r.Err == nil {
		return ""
	}
	return r.Err.Code
}

func TestGenerationNeedsGates(t *testing.T) {
	h := newHarness(t)
	r := h.call("generate_premise", map[string]any{"title": "t", "body": "b", "premise_type": "initial"})
	if code(r) != core.CodeGatesNotSatisfied || r.Status() != "error" || len(r.Output["missing_gates"].([]string)) != 3 {
		t.Fatalf("got %v", r.Output)
	}
	h.must("decompose_problem", map[string]any{"problem_statement": "p", "dimensions": []string{"d"}}, "ok")
	r = h.call("mutate_premise", map[string]any{"source_title": "s", "title": "t", "body": "b", "premise_type": "conservative", "mutation_strength": 0.5})
	if code(r) != core.CodeGatesNotSatisfied {
		t.Fatalf("got %v", r.Output)
	}
}

func TestRoundFlow(t *testing.T) {
	h := newHarness(t)
	h.gates()
	r := h.must("generate_premise", map[string]any{"title": "A", "body": "b", "premise_type": "initial"}, "ok")
	if r.Output["premises_remaining"] != 2 {
		t.Errorf("remaining got %v, want 2", r.Output["premises_remaining"])
	}
	if code(h.call("generate_premise", map[string]any{"title": "R", "body": "b", "premise_type": "radical"})) != core.CodeAxiomNotChallenged {
		t.Fatal("radical allowed without challenge_axiom")
	}
	if r := h.call("challenge_axiom", map[string]any{"axiom": "Nobody cares", "violation_strategy": "negate", "resulting_insight": "i"}); r.Status() != "warning" || code(r) != core.CodeAxiomNotExtracted {
		t.Fatalf("unknown axiom got %v", r.Output)
	}
	h.must("challenge_axiom", map[string]any{"axiom": "churn is bad", "violation_strategy": "invert", "resulting_insight": "i"}, "ok")
	h.must("mutate_premise", map[string]any{"source_title": "A", "title": "B", "body": "b", "premise_type": "radical", "violated_axiom": "churn is bad", "mutation_strength": 1.0}, "ok")
	h.must("cross_pollinate", map[string]any{"primary_title": "A", "title": "C", "body": "b", "premise_type": "combination", "synthesis_strategy": "s"}, "ok")
	if code(h.call("generate_premise", map[string]any{"title": "D", "body": "b", "premise_type": "initial"})) != core.CodeRoundBufferFull {
		t.Fatal("fourth premise accepted")
	}
	if code(h.call("present_round", map[string]any{})) != core.CodeUntestedPremises {
		t.Fatal("untested round presented")
	}
	if code(h.call("obviousness_test", map[string]any{"premise_buffer_index": -1, "premise_title": "A", "obviousness_score": 0.1, "justification": "j"})) != core.CodeInvalidIndex {
		t.Fatal("negative index accepted")
	}
	r = h.call("obviousness_test", map[string]any{"premise_buffer_index": 1, "premise_title": "B", "obviousness_score": 0.61, "justification": "j"})
	if r.Status() != "rejected" || code(r) != core.CodeTooObvious || h.env.State.PremisesInBuffer() != 2 {
		t.Fatalf("0.61 got %v", r.Output)
	}
	if code(h.call("present_round", nil)) != core.CodeIncompleteRound {
		t.Fatal("2-premise round presented")
	}
	h.must("generate_premise", map[string]any{"title": "B2", "body": "b", "premise_type": "initial"}, "ok")
	for i := range 3 {
		h.must("obviousness_test", map[string]any{"premise_buffer_index": i, "premise_title": "x", "obviousness_score": 0.6, "justification": "j"}, "ok")
	}
	r = h.must("present_round", map[string]any{"round_summary": "s"}, "awaiting_user_scores")
	views := r.Output["premises"].([]core.PremiseView)
	if r.Pause == nil || r.Pause.Type != core.EventPremises || len(views) != 3 || views[0].ID == "" || views[2].Title != "B2" {
		t.Fatalf("present_round got %+v", r)
	}
	st := h.env.State
	if st.RoundNumber != 1 || st.PremisesInBuffer() != 0 || st.AxiomChallenged || st.Awaiting != core.AwaitScores || st.Pending == nil {
		t.Errorf("state after round got %+v", st)
	}
	stored, _ := h.repo.QueryPremises(context.Background(), h.env.SessionID, core.PremiseQuery{Filter: core.FilterByRound, RoundNumber: 1})
	if len(stored) != 3 || stored[0].ID != views[0].ID || stored[1].PremiseType != core.PremiseCombination {
		t.Errorf("stored got %+v", stored)
	}
	// Round 2 needs the negative context first.
	if code(h.call("generate_premise", map[string]any{"title": "N", "body": "b", "premise_type": "initial"})) != core.CodeNegativeContextMissing {
		t.Fatal("round 2 generation without negative context")
	}
	h.repo.UpdateScore(context.Background(), h.env.SessionID, core.ScoreUpdate{PremiseID: views[0].ID, Score: 3})
	r = h.must("get_negative_context", nil, "ok")
	if r.Output["count"] != 1 {
		t.Errorf("negative context got %v", r.Output)
	}
	h.fillRound("R2")
	h.must("present_round", nil, "awaiting_user_scores")
	if n, _ := h.repo.CountRounds(context.Background(), h.env.SessionID); n != 2 {
		t.Errorf("rounds got %d, want 2", n)
	}
}

func TestUnknownToolAndPanic(t *testing.T) {
	h := newHarness(t)
	if r := h.call("summon_genie", nil); code(r) != core.CodeUnknownTool || r.Message() != "ERROR: Tool 'summon_genie' does not exist." {
		t.Errorf("got %v", r.Output)
	}
	h.env.State = nil // a handler dereferencing it panics
	if r := h.call("decompose_problem", map[string]any{"problem_statement": "p", "dimensions": []string{"d"}}); code(r) != core.CodeToolExecution {
		t.Errorf("got %v, want TOOL_EXECUTION_ERROR", r.Output)
	}
}

func TestAskUserPauses(t *testing.T) {
	h := newHarness(t)
	r := h.must("ask_user", map[string]any{"question": "Which?", "options": []map[string]any{{"label": "A"}, {"label": "B", "description": "d"}}}, "awaiting_user_response")
	data := r.Pause.Data.(AskUserData)
	if r.Pause.Type != core.EventAskUser || !data.AllowFreeText || data.Options[1].Description != "d" || h.env.State.Awaiting != core.AwaitAskUser {
		t.Errorf("got %+v", r)
	}
	r = h.must("ask_user", map[string]any{"question": "Which?", "allow_free_text": false, "options": []map[string]any{{"label": "A"}, {"label": "B"}}}, "awaiting_user_response")
	if r.Pause.Data.(AskUserData).AllowFreeText {
		t.Error("allow_free_text false ignored")
	}
}

func TestFinalSpecOnlyAfterResolution(t *testing.T) {
	h := newHarness(t)
	in := map[string]any{"winning_premise_title": "W", "winning_premise_body": "b", "problem_statement": "p", "spec_content": "# Spec\n\nDo it."}
	if r := h.call("generate_final_spec", in); code(r) != core.CodeFinalSpecNotAllowed {
		t.Fatalf("got %v", r.Output)
	}
	h.env.State.Resolved = true
	r := h.must("generate_final_spec", in, "ok")
	path := SpecPath(h.env.SpecDir, h.env.SessionID)
	b, err := os.ReadFile(path)
	if err != nil || string(b) != "# Spec\n\nDo it." {
		t.Fatalf("spec file got %q, %v", b, err)
	}
	sess, _ := h.repo.GetSession(context.Background(), h.env.SessionID)
	if sess.SpecPath != path || r.Pause.Type != core.EventFinalSpec || !h.env.State.SpecGenerated || r.Output["download_url"] != h.env.SpecURL {
		t.Errorf("got %+v / %+v", sess, r)
	}
}

func TestMemoryTools(t *testing.T) {
	h := newHarness(t)
	h.must("store_premise", map[string]any{"title": "A", "body": "b", "premise_type": "initial", "score": 8.26, "round_number": 1, "is_winner": true}, "error")
	r := h.must("store_premise", map[string]any{"title": "A", "body": "b", "premise_type": "initial", "score": 8.26, "round_number": 1}, "ok")
	if err := h.repo.MarkWinner(context.Background(), h.env.SessionID, r.Output["premise_id"].(string)); err != nil {
		t.Fatal(err)
	}
	h.must("store_premise", map[string]any{"title": "A", "body": "rewritten", "premise_type": "initial", "round_number": 1}, "error")
	h.must("store_premise", map[string]any{"title": "B", "premise_type": "radical", "score": 2, "round_number": 1}, "ok")
	r = h.must("query_premises", map[string]any{"filter": "winners"}, "ok")
	ps := r.Output["premises"].([]premiseOut)
	if len(ps) != 1 || ps[0].Title != "A" || *ps[0].Score != 8.3 {
		t.Errorf("winners got %+v", ps)
	}
	r = h.must("query_premises", map[string]any{"filter": "by_type", "premise_type": "radical"}, "ok")
	if r.Output["count"] != 1 {
		t.Errorf("by_type got %v", r.Output)
	}
	h.env.TokensUsed = 100_000
	r = h.must("get_context_usage", nil, "ok")
	if r.Output["tokens_remaining"] != int64(900_000) || r.Output["usage_percentage"] != 10.0 {
		t.Errorf("usage got %v", r.Output)
	}
}

// TestSchemasResolve resolves every tool's input schema, as the first
// Execute does (NewDispatch leaves it to then): one that does not
// resolve would panic there.
func TestSchemasResolve(t *testing.T) {
	rs := schemas()
	for _, d := range All() {
		if rs[d.Name] == nil {
			t.Errorf("%s: no resolved schema", d.Name)
		}
	}
}
