package core

import (
	"encoding/json"
	"math"
	"testing"
	"unicode/utf8"
)

// FuzzUserInput feeds arbitrary bodies to the user-input validation: it must
// never panic, and whatever it accepts must satisfy the documented bounds.
func FuzzUserInput(f *testing.F) {
	for _, seed := range []string{
		`{"type":"scores","scores":[{"premise_id":"a","score":7.25},{"premise_title":"b","score":0},{"premise_title":"c","score":10}]}`,
		`{"type":"ask_user_response","response":"yes"}`,
		`{"type":"resolved","winner":{"title":"t","index":2,"score":9.99}}`,
		`{"type":"resolved","winner_title":"t","winner_index":-1}`,
		`{"type":"scores","scores":[{},{},{}]}`,
		`{"type":"resolved","winner":null}`,
		`{}`, `[]`, `null`,
	} {
		f.Add([]byte(seed))
	}
	f.Fuzz(func(t *testing.T, body []byte) {
		var in UserInput
		if json.Unmarshal(body, &in) != nil {
			return
		}
		out, err := in.Normalize()
		if err != nil {
			if err.Code != CodeValidation || len(err.Details) == 0 {
				t.Fatalf("got %+v, want VALIDATION_ERROR with details", err)
			}
			return
		}
		switch out.Type {
		case InputScores:
			if len(out.Scores) != 3 {
				t.Fatalf("accepted %d scores", len(out.Scores))
			}
			for _, s := range out.Scores {
				if s.Score == nil || *s.Score < 0 || *s.Score > 10 || math.Round(*s.Score*10)/10 != *s.Score {
					t.Fatalf("accepted score %v", s.Score)
				}
			}
		case InputAskUser:
			if out.Response == nil || *out.Response == "" || utf8.RuneCountInString(*out.Response) > ResponseMaxLen {
				t.Fatalf("accepted response %v", out.Response)
			}
		case InputResolved:
			if out.Winner == nil || out.Winner.Index == nil || *out.Winner.Index < 0 || *out.Winner.Index > 2 {
				t.Fatalf("accepted winner %+v", out.Winner)
			}
		default:
			t.Fatalf("accepted type %q", out.Type)
		}
	})
}

// FuzzValidateProblem: accepted problems are trimmed and 10–10,000 runes.
func FuzzValidateProblem(f *testing.F) {
	for _, seed := range []string{"How might we reduce churn?", "  short  ", "", "\u00a0\u00a0abcdefghij\u00a0"} {
		f.Add(seed)
	}
	f.Fuzz(func(t *testing.T, p string) {
		got, err := ValidateProblem(p)
		if err != nil {
			return
		}
		n := utf8.RuneCountInString(got)
		if n < ProblemMinLen || n > ProblemMaxLen {
			t.Fatalf("accepted %d runes", n)
		}
	})
}
