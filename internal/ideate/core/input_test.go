package core

import (
	"encoding/json"
	"strings"
	"testing"

	"github.com/google/go-cmp/cmp"
)

func TestValidateProblem(t *testing.T) {
	tests := []struct {
		name, in, want string
		ok             bool
	}{
		{"trimmed to 10", "  0123456789  ", "0123456789", true},
		{"9 after trim", "   012345678   ", "", false},
		{"blank", "      \n\t     ", "", false},
		{"10000", strings.Repeat("x", 10_000), strings.Repeat("x", 10_000), true},
		{"10001", strings.Repeat("x", 10_001), "", false},
		{"runes not bytes", strings.Repeat("é", 10), strings.Repeat("é", 10), true},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			got, err := ValidateProblem(tt.in)
			if (err == nil) != tt.ok || got != tt.want {
				t.Errorf("got %q, %v; want %q ok=%v", got, err, tt.want, tt.ok)
			}
			if err != nil && (err.Code != CodeValidation || err.Details[0].Field != "problem") {
				t.Errorf("got %+v, want VALIDATION_ERROR on problem", err)
			}
		})
	}
}

func decodeInput(t testing.TB, s string) UserInput {
	t.Helper()
	var in UserInput
	if err := json.Unmarshal([]byte(s), &in); err != nil {
		t.Fatal(err)
	}
	return in
}

func fields(e *Error) []string {
	if e == nil {
		return nil
	}
	var out []string
	for _, d := range e.Details {
		out = append(out, d.Field)
	}
	return out
}

func TestUserInputValidation(t *testing.T) {
	tests := []struct {
		name, body string
		fields     []string
	}{
		{"scores ok", `{"type":"scores","scores":[{"premise_id":"a","score":1},{"premise_title":"b","score":0},{"premise_title":"c","score":10}]}`, nil},
		{"two scores", `{"type":"scores","scores":[{"premise_id":"a","score":1},{"premise_id":"b","score":2}]}`, []string{"scores"}},
		{"four scores", `{"type":"scores","scores":[{"premise_id":"a","score":1},{"premise_id":"b","score":2},{"premise_id":"c","score":2},{"premise_id":"d","score":2}]}`, []string{"scores"}},
		{"score 10.01", `{"type":"scores","scores":[{"premise_id":"a","score":10.01},{"premise_id":"b","score":2},{"premise_id":"c","score":2}]}`, []string{"scores.0.score"}},
		{"negative score", `{"type":"scores","scores":[{"premise_id":"a","score":1},{"premise_id":"b","score":-0.1},{"premise_id":"c","score":2}]}`, []string{"scores.1.score"}},
		{"missing score and name", `{"type":"scores","scores":[{"premise_id":"a","score":1},{"premise_id":"b","score":1},{}]}`, []string{"scores.2.premise_title", "scores.2.score"}},
		{"long comment", `{"type":"scores","scores":[{"premise_id":"a","score":1,"comment":"` + strings.Repeat("c", 2001) + `"},{"premise_id":"b","score":1},{"premise_id":"c","score":1}]}`, []string{"scores.0.comment"}},
		{"answer ok", `{"type":"ask_user_response","response":"Yes"}`, nil},
		{"empty answer", `{"type":"ask_user_response","response":"   "}`, []string{"response"}},
		{"long answer", `{"type":"ask_user_response","response":"` + strings.Repeat("r", 5001) + `"}`, []string{"response"}},
		{"resolved nested", `{"type":"resolved","winner":{"title":"T","index":2,"score":8.5}}`, nil},
		{"resolved flat", `{"type":"resolved","winner_title":"T","winner_index":0}`, nil},
		{"winner index 3", `{"type":"resolved","winner":{"title":"T","index":3}}`, []string{"winner.index"}},
		{"winner index -1", `{"type":"resolved","winner":{"title":"T","index":-1}}`, []string{"winner.index"}},
		{"no winner", `{"type":"resolved"}`, []string{"winner"}},
		{"winner without index", `{"type":"resolved","winner":{"title":"T"}}`, []string{"winner.index"}},
		{"unknown type", `{"type":"vote"}`, []string{"type"}},
		{"raw text too long", `{"type":"ask_user_response","response":"ok","raw_text":"` + strings.Repeat("r", 10_001) + `"}`, []string{"raw_text"}},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			_, err := decodeInput(t, tt.body).Normalize()
			if diff := cmp.Diff(tt.fields, fields(err)); diff != "" {
				t.Errorf("failed fields (-want +got):\n%s", diff)
			}
		})
	}
}

func TestScoresRoundedToOneDecimal(t *testing.T) {
	in, err := decodeInput(t, `{"type":"scores","scores":[{"premise_id":"a","score":7.25},{"premise_id":"b","score":4.14},{"premise_id":"c","score":9.96}]}`).Normalize()
	if err != nil {
		t.Fatal(err)
	}
	var got []float64
	for _, s := range in.Scores {
		got = append(got, *s.Score)
	}
	if diff := cmp.Diff([]float64{7.3, 4.1, 10}, got); diff != "" {
		t.Errorf("(-want +got):\n%s", diff)
	}
}

func TestScoresMessage(t *testing.T) {
	got := ScoresMessage([]NamedScore{{"A", 7.2, ""}, {"B", 4.1, "meh"}, {"C", 8.5, ""}})
	for _, want := range []string{`- "A": 7.2/10`, `- "B": 4.1/10 — "meh"`, `Highest scored: "C" (8.5/10)`, "get_negative_context"} {
		if !strings.Contains(got, want) {
			t.Errorf("message lacks %q:\n%s", want, got)
		}
	}
}
