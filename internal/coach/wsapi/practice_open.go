package wsapi

import (
	"context"

	"github.com/paige-dev/paige/internal/coach"
)

// TypePracticeOpen asks for one kata for the Practice view (workbench; not
// in the spec): reply practice:kata_load to the sender, or review:error
// {kataId, error: "Kata not found"}.
const TypePracticeOpen = "practice:open"

// PracticeOpen is the payload of practice:open.
type PracticeOpen struct {
	KataID string `json:"kataId"`
}

// Valid reports whether KataID is set.
func (p *PracticeOpen) Valid() error { return required("kataId", p.KataID) }

// Kata is a kata as the Practice view shows it (instructor notes are
// hidden and never sent).
type Kata struct {
	ID              string        `json:"id"`
	Title           string        `json:"title"`
	Description     string        `json:"description"`
	ScaffoldingCode string        `json:"scaffoldingCode"`
	Constraints     []Constraint  `json:"constraints"`
	UserAttempts    []KataAttempt `json:"userAttempts"`
}

// KataAttempt is one earlier attempt; Review, Level and Passed are null
// until it was reviewed.
type KataAttempt struct {
	Code        string       `json:"code"`
	Review      *string      `json:"review"`
	Level       *int         `json:"level"`
	Passed      *bool        `json:"passed"`
	Constraints []Constraint `json:"constraints"`
}

// KataLoader loads a kata without its instructor notes (practice.Service).
type KataLoader interface {
	Kata(ctx context.Context, id string) (coach.KataSpec, error)
}

// OpenKataHandler answers practice:open from k, to the sender only. It
// needs no model, so it works offline.
func OpenKataHandler(k KataLoader) Handler {
	return Handle(func(ctx context.Context, req *Request, in PracticeOpen) error {
		kata, err := k.Kata(ctx, in.KataID)
		if err != nil {
			req.Reply(TypeReviewError, ReviewError{KataID: in.KataID, Error: userMessage(err)})
			return nil
		}
		req.Reply(TypePracticeKataLoad, KataLoad{Kata: kataOf(kata), Constraints: constraintsOf(kata.Constraints)})
		return nil
	})
}

func kataOf(k coach.KataSpec) Kata {
	out := Kata{ID: k.ID, Title: k.Title, Description: k.Description, ScaffoldingCode: k.ScaffoldingCode,
		Constraints: constraintsOf(k.Constraints), UserAttempts: make([]KataAttempt, 0, len(k.UserAttempts))}
	for _, a := range k.UserAttempts {
		out.UserAttempts = append(out.UserAttempts, KataAttempt{Code: a.Code, Review: a.Review, Level: a.Level,
			Passed: a.Passed, Constraints: constraintsOf(a.Constraints)})
	}
	return out
}

func constraintsOf(cs []coach.KataConstraint) []Constraint {
	out := make([]Constraint, 0, len(cs))
	for _, c := range cs {
		out = append(out, constraintOf(c))
	}
	return out
}
