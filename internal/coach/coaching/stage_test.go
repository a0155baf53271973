package coaching

import (
	"context"
	"errors"
	"fmt"
	"testing"
	"time"

	"github.com/google/go-cmp/cmp"

	"github.com/paige-dev/paige/internal/coach"
	"github.com/paige-dev/paige/internal/llm"
)

func TestStageFor(t *testing.T) {
	t0 := time.Date(2026, 1, 1, 0, 0, 0, 0, time.UTC)
	a := func(area string, st coach.DreyfusStage, conf float64, at int) coach.DreyfusAssessment {
		return coach.DreyfusAssessment{SkillArea: area, Stage: st, Confidence: conf, AssessedAt: t0.Add(time.Duration(at) * time.Hour)}
	}
	for _, tc := range []struct {
		name  string
		list  []coach.DreyfusAssessment
		topic string
		want  coach.DreyfusStage
	}{
		{"no assessments", nil, "typescript", coach.Novice},
		{"word match", []coach.DreyfusAssessment{a("SQL", coach.Novice, 1, 0), a("TypeScript generics", coach.Competent, 0.5, 0)}, "typescript ts", coach.Competent},
		{"more shared words win", []coach.DreyfusAssessment{a("React", coach.Expert, 1, 0), a("React state management", coach.Novice, 0.1, 0)}, "react state", coach.Novice},
		{"tie: higher confidence", []coach.DreyfusAssessment{a("Go errors", coach.Novice, 0.3, 0), a("Go testing", coach.Proficient, 0.9, 0)}, "go", coach.Proficient},
		{"tie: newer", []coach.DreyfusAssessment{a("Go errors", coach.Novice, 0.5, 2), a("Go testing", coach.Proficient, 0.5, 1)}, "go", coach.Novice},
		{"no match: lowest stage", []coach.DreyfusAssessment{a("Rust", coach.Expert, 1, 0), a("CSS", coach.Competent, 1, 0)}, "python", coach.Competent},
		{"empty topic: lowest stage", []coach.DreyfusAssessment{a("Rust", coach.Proficient, 1, 0)}, "", coach.Proficient},
		{"invalid stage ignored", []coach.DreyfusAssessment{a("python", "guru", 1, 0)}, "python", coach.Novice},
		{"case and punctuation", []coach.DreyfusAssessment{a("OAuth/OIDC", coach.AdvancedBeginner, 1, 0)}, "oauth token refresh", coach.AdvancedBeginner},
	} {
		t.Run(tc.name, func(t *testing.T) {
			if got := StageFor(tc.list, tc.topic); got != tc.want {
				t.Errorf("got %v, want %v", got, tc.want)
			}
		})
	}
}

func TestWords(t *testing.T) {
	for in, want := range map[string][]string{
		"React state management": {"react", "state", "management"},
		"src/auth.ts":            {"src", "auth", "ts"},
		"The state of the art":   {"state", "art"},
		"Go go GO":               {"go"},
		"  ":                     nil,
		"Ünïcode naïve":          {"ünïcode", "naïve"},
	} {
		if diff := cmp.Diff(want, Words(in)); diff != "" {
			t.Errorf("Words(%q) (-want +got):\n%s", in, diff)
		}
	}
}

func FuzzWords(f *testing.F) {
	for _, s := range []string{"React state", "src/a.ts", "", "a\x00b", "ÄÖÜ the of"} {
		f.Add(s)
	}
	f.Fuzz(func(t *testing.T, s string) {
		seen := map[string]bool{}
		for _, w := range Words(s) {
			if w == "" || seen[w] || stopWords[w] {
				t.Fatalf("Words(%q) has %q (empty, repeated or stop word)", s, w)
			}
			seen[w] = true
		}
		_ = StageFor([]coach.DreyfusAssessment{{SkillArea: s, Stage: coach.Expert}}, s)
	})
}

func TestUserMessage(t *testing.T) {
	for _, tc := range []struct {
		err  error
		want string
	}{
		{llm.ErrNoModel, "Explain This needs Claude, and no model is configured: set ANTHROPIC_API_KEY and restart Paige."},
		{&llm.RefusalError{}, "Claude declined to answer this request. Try a different selection or wording."},
		{&llm.MaxTokensError{}, "Claude's answer was too long and got cut off. Try a smaller selection."},
		{&llm.InvalidReplyError{Reason: "schema"}, "Claude returned an answer Paige could not read. Try again."},
		{&llm.APIError{StatusCode: 401}, "Claude rejected the API key. Check ANTHROPIC_API_KEY."},
		{&llm.APIError{StatusCode: 429}, "Claude is rate-limiting requests right now. Wait a moment and try again."},
		{fmt.Errorf("call: %w", &llm.APIError{StatusCode: 529}), "Claude is unavailable or overloaded right now. Try again in a minute."},
		{&llm.APIError{StatusCode: 400}, "Explain This failed: Claude rejected the request."},
		{&llm.OverloadedError{APIError: &llm.APIError{StatusCode: 200, Type: "overloaded_error"}}, "Claude is unavailable or overloaded right now. Try again in a minute."},
		{context.Canceled, "Explain This was cancelled before Claude answered. Try again."},
		{errors.New("boom"), "Explain This failed unexpectedly. Try again."},
		{nil, ""},
	} {
		if got := UserMessage("Explain This", tc.err); got != tc.want {
			t.Errorf("UserMessage(%v) = %q, want %q", tc.err, got, tc.want)
		}
	}
	ue := &UserError{Msg: "m", Err: context.Canceled}
	if ue.Error() != "m" || !errors.Is(ue, context.Canceled) {
		t.Errorf("UserError = %v", ue)
	}
}
