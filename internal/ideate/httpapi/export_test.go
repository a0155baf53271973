package httpapi

import (
	"encoding/json"
	"io"
	"slices"
	"strings"
	"testing"

	"github.com/paige-dev/paige/internal/ideate/core"
	"github.com/paige-dev/paige/internal/ideate/ideatetest"
	"github.com/paige-dev/paige/internal/llm/llmtest"
)

// combinedRound returns a later round whose first premise combines two
// premises of round 1 and whose second evolves from one.
func combinedRound() []llmtest.Response {
	gen := []llmtest.Block{
		llmtest.ToolUseBlock("toolu_comb_cross", "cross_pollinate", map[string]any{
			"primary_title": "R1 premise A", "secondary_premises": []map[string]any{{"title": "r1 premise c "}, {"title": "Nowhere"}},
			"title": "Hybrid", "body": "A meets C", "premise_type": "combination", "synthesis_strategy": "merge"}),
		llmtest.ToolUseBlock("toolu_comb_mut", "mutate_premise", map[string]any{
			"source_title": "R1 premise B", "title": "Mutant", "body": "B inverted", "premise_type": "conservative", "mutation_strength": 0.5}),
		llmtest.ToolUseBlock("toolu_comb_gen", "generate_premise", map[string]any{"title": "Fresh", "body": "new", "premise_type": "initial"}),
	}
	var test []llmtest.Block
	for i, title := range []string{"Hybrid", "Mutant", "Fresh"} {
		test = append(test, llmtest.ToolUseBlock("toolu_comb_obv"+title, "obviousness_test", map[string]any{
			"premise_buffer_index": i, "premise_title": title, "obviousness_score": 0.2, "justification": "novel"}))
	}
	return []llmtest.Response{
		llmtest.ToolUse("toolu_comb_neg", "get_negative_context", map[string]any{}),
		llmtest.Message("tool_use", gen...),
		llmtest.Message("tool_use", test...),
		llmtest.ToolUse("toolu_comb_present", "present_round", map[string]any{"round_summary": "combined"}),
	}
}

// fullSession runs a session through two rounds (the second combining and
// evolving the first's premises), a question and its answer, and the
// resolution with its spec; it returns the session's id.
func fullSession(t *testing.T, e *env) string {
	t.Helper()
	id := e.create(problem)
	e.fake.Enqueue(ideatetest.FirstRound("R1")...)
	ps := premisesOf(t, e.stream(id))
	e.fake.Enqueue(ideatetest.AskUser("Which market first?"))
	e.input(id, scoresFor(ps))
	e.fake.Enqueue(combinedRound()...)
	evs := e.input(id, map[string]any{"type": "ask_user_response", "response": "Small businesses"})
	r2 := premisesOf(t, evs)
	if !slices.Equal(r2[0].SecondaryTitles, []string{"r1 premise c", "Nowhere"}) {
		t.Errorf("premises event secondary_titles got %q", r2[0].SecondaryTitles)
	}
	e.fake.Enqueue(llmtest.Text("Noted: Fresh leads."))
	e.input(id, scoresFor(r2))
	e.fake.Enqueue(ideatetest.FinalSpec("Hybrid", "# Hybrid spec\n\nBuild it."))
	if _, ok := find(e.input(id, map[string]any{"type": "resolved", "winner": map[string]any{"index": 0}}), core.EventFinalSpec); !ok {
		t.Fatal("no final spec")
	}
	return id
}

// TestLineageWhole (issue 28.5): the detail gives every premise its parents
// by id with their round, all parents of a combination included, and the
// winner keeps the user's score.
func TestLineageWhole(t *testing.T) {
	both(t, func(t *testing.T, e *env) {
		id := fullSession(t, e)
		d := e.detail(id)
		if len(d.Rounds) != 2 {
			t.Fatalf("rounds got %d, want 2", len(d.Rounds))
		}
		r1 := d.Rounds[0].Premises
		type par struct {
			ID    string
			Round int
			Rel   core.Relation
		}
		parents := func(i int) []par {
			var out []par
			for _, p := range d.Rounds[1].Premises[i].Parents {
				out = append(out, par{p.ID, p.RoundNumber, p.Relation})
			}
			return out
		}
		if got, want := parents(0), []par{{r1[0].ID, 1, core.RelationCombined}, {r1[2].ID, 1, core.RelationCombined}}; !slices.Equal(got, want) {
			t.Errorf("combined premise parents got %v, want %v", got, want)
		}
		if got, want := parents(1), []par{{r1[1].ID, 1, core.RelationEvolved}}; !slices.Equal(got, want) {
			t.Errorf("evolved premise parents got %v, want %v", got, want)
		}
		if got := parents(2); len(got) != 0 || d.Rounds[1].Premises[2].Parents == nil {
			t.Errorf("fresh premise parents got %v, want []", d.Rounds[1].Premises[2].Parents)
		}
		w := d.Rounds[1].Premises[0]
		if !w.IsWinner || w.Score == nil || *w.Score != 7.0 {
			t.Errorf("winner got %+v, want the user's pick with the user's score 7.0", w)
		}
	})
}

// TestRenameAndExport (issue 28.6): a session can be renamed, and exported
// whole as JSON and Markdown: every round, premise, score, comment, answer,
// the spec and the lineage.
func TestRenameAndExport(t *testing.T) { both(t, testRenameAndExport) }

func testRenameAndExport(t *testing.T, e *env) {
	id := fullSession(t, e)
	for _, bad := range []string{`{}`, `{"title": "two\nlines"}`, `{"title": "` + strings.Repeat("x", 201) + `"}`} {
		if resp := e.json("PATCH", "/api/v1/sessions/"+id, bad, 400); errCode(resp) != string(core.CodeValidation) {
			t.Errorf("rename %s got %v", bad, resp)
		}
	}
	e.json("PATCH", "/api/v1/sessions/00000000-0000-0000-0000-000000000000", map[string]any{"title": "x"}, 404)
	if got := e.json("PATCH", "/api/v1/sessions/"+id, map[string]any{"title": "  Churn ideas  "}, 200)["title"]; got != "Churn ideas" {
		t.Errorf("rename answered title %v", got)
	}
	if d := e.detail(id); d.Title != "Churn ideas" {
		t.Errorf("detail title got %q", d.Title)
	}
	if row := e.json("GET", "/api/v1/sessions", nil, 200)["sessions"].([]any)[0].(map[string]any); row["title"] != "Churn ideas" {
		t.Errorf("list title got %v", row["title"])
	}

	resp := e.do("GET", "/api/v1/sessions/"+id+"/export?format=json", nil)
	raw, _ := io.ReadAll(resp.Body)
	resp.Body.Close()
	if cd := resp.Header.Get("Content-Disposition"); resp.StatusCode != 200 || !strings.Contains(cd, "ghostpath-session-"+id+".json") {
		t.Fatalf("json export got %d %q", resp.StatusCode, cd)
	}
	var x struct {
		detail
		Spec *string `json:"spec"`
	}
	if err := json.Unmarshal(raw, &x); err != nil {
		t.Fatal(err)
	}
	var scored, commented int
	for _, r := range x.Rounds {
		for _, p := range r.Premises {
			if p.Score != nil {
				scored++
			}
			if p.UserComment != nil {
				commented++
			}
		}
	}
	if len(x.Rounds) != 2 || scored != 6 || commented != 6 || len(x.Rounds[1].Premises[0].Parents) != 2 ||
		len(x.Answers) != 1 || x.Answers[0].Question != "Which market first?" || x.Answers[0].Answer != "Small businesses" ||
		x.Spec == nil || !strings.Contains(*x.Spec, "Build it.") || x.Title != "Churn ideas" {
		t.Errorf("json export is not whole: %s", raw)
	}

	resp = e.do("GET", "/api/v1/sessions/"+id+"/export?format=md", nil)
	raw, _ = io.ReadAll(resp.Body)
	resp.Body.Close()
	md := string(raw)
	if !strings.HasPrefix(resp.Header.Get("Content-Type"), "text/markdown") {
		t.Errorf("md export content type %q", resp.Header.Get("Content-Type"))
	}
	for _, want := range []string{"# Churn ideas", problem, "## Round 1", "## Round 2", "### Hybrid — ★ the user's winner",
		"- Combined from: R1 premise A (round 1", "- Combined from: R1 premise C (round 1", "- Evolved from: R1 premise B (round 1",
		"- Score: 9.0/10", "- Comment: comment R1 premise B", "**Q:** Which market first?", "**A:** Small businesses",
		"## Final spec", "Build it."} {
		if !strings.Contains(md, want) {
			t.Errorf("md export lacks %q:\n%s", want, md)
		}
	}
	if resp := e.json("GET", "/api/v1/sessions/"+id+"/export?format=pdf", nil, 400); errCode(resp) != string(core.CodeValidation) {
		t.Errorf("pdf export got %v", resp)
	}
}

// TestResolveKeepsTheRoundsScores (issue 28.5): scores given on the page
// before resolving travel with the resolved input, so the winner and its
// round show the user's scores; a saved score is never replaced, and a
// score naming no premise of the round is refused before anything is saved.
func TestResolveKeepsTheRoundsScores(t *testing.T) {
	e := newEnv(t)
	id := e.create(problem)
	e.fake.Enqueue(ideatetest.FirstRound("R1")...)
	ps := premisesOf(t, e.stream(id))
	resolved := func(scores ...map[string]any) map[string]any {
		return map[string]any{"type": "resolved", "winner": map[string]any{"index": 2}, "scores": scores}
	}
	bad := e.json("POST", "/api/v1/sessions/"+id+"/user-input",
		resolved(map[string]any{"premise_id": ps[0].ID, "score": 4.0}, map[string]any{"premise_title": "nope", "score": 5.0}), 400)
	if got := detailFields(bad); !slices.Equal(got, []string{"scores.1.premise_id"}) {
		t.Fatalf("unknown premise got %v", bad)
	}
	if d := e.detail(id); d.Rounds[0].Premises[0].Score != nil {
		t.Fatalf("a refused input saved a score: %v", *d.Rounds[0].Premises[0].Score)
	}
	e.fake.Enqueue(ideatetest.FinalSpec("R1 premise C", "# Spec"))
	e.input(id, resolved(map[string]any{"premise_id": ps[0].ID, "score": 4.0, "comment": "meh"},
		map[string]any{"premise_id": ps[2].ID, "score": 8.4}))
	d := e.detail(id)
	got := func(i int) any {
		if s := d.Rounds[0].Premises[i].Score; s != nil {
			return *s
		}
		return nil
	}
	if got(0) != 4.0 || got(1) != nil || got(2) != 8.4 || !d.Rounds[0].Premises[2].IsWinner {
		t.Errorf("scores got %v %v %v (winner %v), want 4, none, 8.4 on the winner", got(0), got(1), got(2), d.Rounds[0].Premises[2].IsWinner)
	}
	reqs := e.fake.Requests()
	if last := reqs[len(reqs)-1].LastUserText(); !strings.Contains(last, "score: 8.4") {
		t.Errorf("the agent was told %q, want the winner's score", last)
	}
}
