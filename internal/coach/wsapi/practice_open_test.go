package wsapi

import (
	"context"
	"strings"
	"testing"

	"github.com/paige-dev/paige/internal/coach"
	"github.com/paige-dev/paige/internal/coach/practice"
	"github.com/paige-dev/paige/internal/coach/session"
	"github.com/paige-dev/paige/internal/llm"
)

// TestPracticeOpen: practice:open answers the sender with the kata from the
// store (attempts included, instructor notes never), an unknown id with
// review:error "Kata not found", and without the extension NOT_IMPLEMENTED.
func TestPracticeOpen(t *testing.T) {
	var loader KataLoader
	h := newHarness(t, Options{Extensions: Extensions{OpenKata: Handle(func(ctx context.Context, req *Request, in PracticeOpen) error {
		return OpenKataHandler(loader)(ctx, req)
	})}})
	loader = practice.New(h.st, h.sess, llm.New(llm.Options{}), nil) // offline: opening a kata needs no model
	ctx := context.Background()
	sess, err := h.sess.Start(ctx, session.StartInput{IssueTitle: "x"})
	if err != nil {
		t.Fatal(err)
	}
	gap, err := h.st.CreateKnowledgeGap(ctx, coach.KnowledgeGap{SessionID: sess.ID, Topic: "closures", Severity: coach.SeverityMedium})
	if err != nil {
		t.Fatal(err)
	}
	kata, err := h.st.CreateKata(ctx, coach.KataSpec{KnowledgeGapID: gap.ID, Title: "Counter", Description: "Write makeCounter",
		ScaffoldingCode: "function makeCounter() {}", InstructorNotes: "SECRET-NOTES",
		Constraints: []coach.KataConstraint{{Title: "No globals", Description: "d", MinLevel: 2}}})
	if err != nil {
		t.Fatal(err)
	}
	level := 3
	if _, err := h.st.AppendKataAttempt(ctx, kata.ID, coach.KataAttempt{Code: "v1", Level: &level}); err != nil {
		t.Fatal(err)
	}

	c := h.dial(t)
	c.sendRaw(`{"type":"practice:open","payload":{"kataId":"` + kata.ID + `"},"id":"k1"}`)
	var got KataLoad
	env := c.expect(TypePracticeKataLoad, &got)
	if env.ID != "k1" || strings.Contains(string(env.Payload), "SECRET-NOTES") {
		t.Errorf("reply: id %q, payload %s; want id k1 and no instructor notes", env.ID, env.Payload)
	}
	k := got.Kata
	if k.ID != kata.ID || k.Title != "Counter" || k.ScaffoldingCode != "function makeCounter() {}" ||
		len(k.Constraints) != 1 || k.Constraints[0].MinLevel != 2 || len(got.Constraints) != 1 ||
		len(k.UserAttempts) != 1 || k.UserAttempts[0].Code != "v1" || *k.UserAttempts[0].Level != 3 {
		t.Errorf("kata: got %+v", got)
	}

	c.send(TypePracticeOpen, PracticeOpen{KataID: "nope"})
	var re ReviewError
	c.expect(TypeReviewError, &re)
	if re.KataID != "nope" || re.Error != practice.MsgKataNotFound {
		t.Errorf("unknown kata: got %+v", re)
	}

	c.send(TypePracticeOpen, map[string]any{})
	var ce ConnectionError
	c.expect(TypeConnectionError, &ce)
	if ce.Code != CodeInvalidPayload {
		t.Errorf("missing kataId: got %+v, want INVALID_PAYLOAD", ce)
	}

	plain := newHarness(t, Options{})
	pc := plain.dial(t)
	pc.send(TypePracticeOpen, PracticeOpen{KataID: "k"})
	pc.expect(TypeConnectionError, &ce)
	if ce.Code != CodeNotImplemented {
		t.Errorf("without the extension: got %+v, want NOT_IMPLEMENTED", ce)
	}
}
