package web_test

import (
	"bytes"
	"fmt"
	"sync"

	"github.com/paige-dev/paige/internal/llm/llmtest"
)

// The scripted agent of TestBrowserFlow. Each reply is chosen by the
// session's problem (the main flow, the session paused and cancelled, the
// ten-round session) and by how many assistant turns the request's history
// already holds, so a retried request gets the same reply; each step of the
// main flow first checks that the request carries what the user did in the
// browser (scores, answer, winner).

const (
	axiom        = "Every ticket needs a human reply"
	askQuestion  = "Should GhostPath favour speed over depth?"
	specMarkdown = "# Spec: Ticket Immune System\n\n## 1. Executive Summary\n" +
		"A **self-healing** support desk that learns from repeated tickets.\n\n" +
		"| Metric | Target |\n|---|---:|\n| repeated tickets | -80% |\n\n" +
		"<script>alert('x')</script>\n\n## 2. The Problem\n- three product bugs\n- one answer each\n"
)

var (
	round1 = []string{"Self-healing FAQ", "Customers fix bugs", "Ticket immune system"}
	round2 = []string{"Immune memory for bugs", "Antibody macros", "Fever alerts"}
)

// pauseProblem is the session flow.mjs creates, leaves paused at round 1
// and cancels: it gets the main flow's first five replies.
const (
	pauseProblem  = "Pause me: our release notes never reach the customers who asked for the fix."
	pauseRequests = 5
)

// failProblem is the session flow.mjs scores into a model refusal, reloads,
// and resumes: round 1 (four replies), the refusal, then a question.
const (
	failProblem  = "Fail me: our onboarding emails are ignored by nine users in ten."
	failQuestion = "Shall we look at the first email only?"
	failRequests = 6
)

type step struct {
	// wants are byte strings the request must contain (the user's input).
	wants []string
	reply func() llmtest.Response
}

var steps = []step{
	// Round 1. A premature generate_premise shows the gate error in the UI.
	{reply: func() llmtest.Response {
		return msg(llmtest.TextBlock("Let me start with a first idea."),
			use("generate_premise", map[string]any{"title": "Too early", "body": "b", "premise_type": "initial"}))
	}},
	{wants: []string{"GATES_NOT_SATISFIED"}, reply: func() llmtest.Response {
		return msg(llmtest.TextBlock("Right, the analysis gates first."),
			use("decompose_problem", map[string]any{"problem_statement": "Repeated tickets", "dimensions": []string{"volume", "bugs"}}),
			use("map_conventional_approaches", map[string]any{"approaches": []map[string]any{{"name": "More agents", "limitations": "cost"}}}),
			use("extract_hidden_axioms", map[string]any{"axioms": []map[string]any{{"axiom": axiom, "why_assumed": "habit"}}}))
	}},
	{reply: func() llmtest.Response { return generate(round1, "initial") }},
	{reply: func() llmtest.Response { return obviousness(round1) }},
	{reply: func() llmtest.Response { return present("Round 1: three angles on repetition.") }},
	// Scores → ask_user.
	{wants: []string{"8.5", "3.2", "9.9", "Love the self-healing angle"}, reply: func() llmtest.Response {
		return msg(use("ask_user", map[string]any{
			"question": askQuestion,
			"context":  "You scored the self-healing ideas highest.",
			"options": []map[string]any{
				{"label": "Speed first", "description": "Ship the quickest fix"},
				{"label": "Depth first"},
			},
		}))
	}},
	// Answer → round 2 (negative context and an axiom challenge first).
	{wants: []string{"Speed first"}, reply: func() llmtest.Response {
		return msg(use("get_negative_context", map[string]any{}),
			use("challenge_axiom", map[string]any{"axiom": axiom, "violation_strategy": "remove",
				"resulting_insight": "Tickets can answer themselves"}))
	}},
	{reply: func() llmtest.Response { return round2Lineage() }},
	{reply: func() llmtest.Response { return obviousness(round2) }},
	{reply: func() llmtest.Response { return present("Round 2: biology as the lens.") }},
	// Resolved with winner index 1 → the final spec.
	{wants: []string{round2[1]}, reply: func() llmtest.Response {
		return msg(llmtest.TextBlock("Excellent choice! I'll develop a complete spec."),
			use("generate_final_spec", map[string]any{
				"winning_premise_title": round2[1], "winning_premise_body": "Body of " + round2[1],
				"problem_statement": "Repeated tickets", "evolution_summary": "Two rounds",
				"spec_content": specMarkdown}))
	}},
}

// agentScript answers the fake Messages API from steps and records requests
// that lack what the step wants. Safe for concurrent use.
type agentScript struct {
	mu       sync.Mutex
	problemv []string
	refused  bool // the failing session's scores turn was refused once
}

func (s *agentScript) reply(r llmtest.Request) llmtest.Response {
	n := 0
	for _, m := range r.Messages {
		if m.Role == "assistant" {
			n++
		}
	}
	switch {
	case bytes.Contains(r.Raw, []byte(tenProblem)):
		if resp, ok := tenReply(n); ok {
			return resp.WithUsage(1200, 300)
		}
		s.report("ten-round request %d: the script has only %d replies", n+1, tenRequests)
		return llmtest.Text("Done.")
	case bytes.Contains(r.Raw, []byte(failProblem)):
		return s.failReply(n).WithUsage(1200, 300)
	case bytes.Contains(r.Raw, []byte(pauseProblem)) && n >= pauseRequests:
		s.report("paused session request %d: it was cancelled after %d", n+1, pauseRequests)
		return llmtest.Text("Done.")
	}
	if n >= len(steps) {
		s.report("request %d: the script has only %d replies", n+1, len(steps))
		return llmtest.Text("Done.")
	}
	for _, w := range steps[n].wants {
		if !bytes.Contains(r.Raw, []byte(w)) {
			s.report("request %d does not contain %q", n+1, w)
		}
	}
	return steps[n].reply().WithUsage(1200, 300)
}

func (s *agentScript) report(format string, args ...any) {
	s.mu.Lock()
	defer s.mu.Unlock()
	s.problemv = append(s.problemv, fmt.Sprintf(format, args...))
}

func (s *agentScript) problems() []string {
	s.mu.Lock()
	defer s.mu.Unlock()
	return append([]string(nil), s.problemv...)
}

var (
	idMu sync.Mutex
	idN  int
)

func use(name string, input any) llmtest.Block {
	idMu.Lock()
	idN++
	id := fmt.Sprintf("toolu_e2e_%02d_%s", idN, name)
	idMu.Unlock()
	return llmtest.ToolUseBlock(id, name, input)
}

func msg(blocks ...llmtest.Block) llmtest.Response { return llmtest.Message("tool_use", blocks...) }

func generate(titles []string, kind string) llmtest.Response {
	var bs []llmtest.Block
	for _, t := range titles {
		in := map[string]any{"title": t, "body": "Body of " + t + ".", "premise_type": kind}
		if kind == "radical" {
			in["violated_axiom"] = axiom
		}
		bs = append(bs, use("generate_premise", in))
	}
	return msg(bs...)
}

// round2Lineage derives round 2 from round 1: one premise evolved from
// "Self-healing FAQ", one combined from "Ticket immune system" (with an
// element of "Customers fix bugs") and one fresh radical premise, so the
// report's lineage graph has both kinds of edge.
func round2Lineage() llmtest.Response {
	return msg(
		use("mutate_premise", map[string]any{"source_title": round1[0], "source_body": "Body of " + round1[0] + ".",
			"title": round2[0], "body": "Body of " + round2[0] + ".", "premise_type": "conservative", "mutation_strength": 0.5,
			"cross_domain_source": "immunology"}),
		use("cross_pollinate", map[string]any{"primary_title": round1[2], "primary_body": "Body of " + round1[2] + ".",
			"title": round2[1], "body": "Body of " + round2[1] + ".", "premise_type": "combination", "synthesis_strategy": "merge",
			"secondary_premises": []map[string]any{{"title": round1[1], "element_to_extract": "customers fix"}}}),
		use("generate_premise", map[string]any{"title": round2[2], "body": "Body of " + round2[2] + ".",
			"premise_type": "radical", "violated_axiom": axiom}))
}

func obviousness(titles []string) llmtest.Response {
	var bs []llmtest.Block
	for i, t := range titles {
		bs = append(bs, use("obviousness_test", map[string]any{"premise_buffer_index": i, "premise_title": t,
			"obviousness_score": 0.3, "justification": "not what most teams try"}))
	}
	return msg(bs...)
}

func present(summary string) llmtest.Response {
	return msg(llmtest.TextBlock(summary), use("present_round", map[string]any{"round_summary": summary}))
}

// failReply is the failing session's script: the main flow's round 1, a
// refusal of the scores turn (not kept, so the retry has the same history),
// then a question once the user resumes.
func (s *agentScript) failReply(n int) llmtest.Response {
	if n < 4 {
		return steps[n+1].reply() // the gates, generation, obviousness, present
	}
	s.mu.Lock()
	refused := s.refused
	s.refused = true
	s.mu.Unlock()
	if !refused {
		return llmtest.Message("refusal")
	}
	if n != 4 {
		s.report("failing session request with %d assistant turns, want 4", n)
	}
	return msg(use("ask_user", map[string]any{"question": failQuestion, "options": []map[string]any{{"label": "Yes"}, {"label": "No"}}}))
}
