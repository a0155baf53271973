package core

import (
	"math"
	"strconv"
	"strings"
	"unicode/utf8"
)

// Validation limits of the API bodies (spec §6 schemas).
const (
	ProblemMinLen  = 10
	ProblemMaxLen  = 10_000
	TitleMaxLen    = 200
	CommentMaxLen  = 2000
	ResponseMaxLen = 5000
	RawTextMaxLen  = 10_000
)

// User input types of POST /sessions/{id}/user-input.
const (
	InputScores   = "scores"
	InputAskUser  = "ask_user_response"
	InputResolved = "resolved"
)

// ValidateProblem trims the problem and checks 10–10,000 characters.
func ValidateProblem(p string) (string, *Error) {
	p = strings.TrimSpace(p)
	n := utf8.RuneCountInString(p)
	switch {
	case p == "":
		return "", Validation(FieldError{"problem", "problem cannot be empty or whitespace", "value_error"})
	case n < ProblemMinLen:
		return "", Validation(FieldError{"problem", "must be at least 10 characters after trimming", "string_too_short"})
	case n > ProblemMaxLen:
		return "", Validation(FieldError{"problem", "must be at most 10000 characters", "string_too_long"})
	}
	return p, nil
}

// ScoreInput is one premise score. Either PremiseID or PremiseTitle names the
// premise (NOTES.md: accept both).
type ScoreInput struct {
	PremiseID    string   `json:"premise_id,omitempty"`
	PremiseTitle string   `json:"premise_title,omitempty"`
	Score        *float64 `json:"score"`
	Comment      *string  `json:"comment,omitempty"`
}

// WinnerInput names the winning premise by index (0–2), with optional title,
// id and score.
type WinnerInput struct {
	Title     string   `json:"title,omitempty"`
	PremiseID string   `json:"premise_id,omitempty"`
	Score     *float64 `json:"score,omitempty"`
	Index     *int     `json:"index"`
}

// UserInput is the body of POST user-input. The flat form of the spec's
// message-flow diagram (winner_title, winner_index, winner_score) is accepted
// beside the nested winner object.
type UserInput struct {
	Type        string       `json:"type"`
	Scores      []ScoreInput `json:"scores,omitempty"`
	Response    *string      `json:"response,omitempty"`
	Winner      *WinnerInput `json:"winner,omitempty"`
	WinnerTitle string       `json:"winner_title,omitempty"`
	WinnerIndex *int         `json:"winner_index,omitempty"`
	WinnerScore *float64     `json:"winner_score,omitempty"`
	RawText     *string      `json:"raw_text,omitempty"`
}

// RoundScore rounds a score to one decimal.
func RoundScore(f float64) float64 { return math.Round(f*10) / 10 }

// Normalize validates in and returns it normalised: scores rounded to 0.1,
// strings trimmed, the flat winner form folded into Winner. The error is a
// VALIDATION_ERROR listing every failed field.
func (in UserInput) Normalize() (UserInput, *Error) {
	var errs []FieldError
	add := func(field, msg, typ string) { errs = append(errs, FieldError{field, msg, typ}) }
	if in.RawText != nil && utf8.RuneCountInString(*in.RawText) > RawTextMaxLen {
		add("raw_text", "must be at most 10000 characters", "string_too_long")
	}
	switch in.Type {
	case InputScores:
		in.Scores = normalizeScores(in.Scores, add)
	case InputAskUser:
		if in.Response == nil || strings.TrimSpace(*in.Response) == "" {
			add("response", "ask_user_response requires a response", "value_error")
		} else if utf8.RuneCountInString(*in.Response) > ResponseMaxLen {
			add("response", "must be at most 5000 characters", "string_too_long")
		} else {
			r := strings.TrimSpace(*in.Response)
			in.Response = &r
		}
	case InputResolved:
		in.Winner = normalizeWinner(in, add)
		if len(in.Scores) > MaxBufferSize {
			add("scores", "resolved takes at most 3 premise scores", "value_error")
		} else if len(in.Scores) > 0 {
			in.Scores = normalizeScoreList(in.Scores, add)
		}
	default:
		add("type", `must be one of "scores", "ask_user_response", "resolved"`, "literal_error")
	}
	if len(errs) > 0 {
		return in, Validation(errs...)
	}
	return in, nil
}

func normalizeScores(scores []ScoreInput, add func(string, string, string)) []ScoreInput {
	if len(scores) != MaxBufferSize {
		add("scores", "scores input requires exactly 3 premise scores", "value_error")
		return scores
	}
	return normalizeScoreList(scores, add)
}

// normalizeScoreList validates and rounds each score of a scores list (the
// scores input's three, or those a resolved input carries for its round).
func normalizeScoreList(scores []ScoreInput, add func(string, string, string)) []ScoreInput {
	out := make([]ScoreInput, len(scores))
	for i, s := range scores {
		f := "scores." + strconv.Itoa(i)
		s.PremiseID, s.PremiseTitle = strings.TrimSpace(s.PremiseID), strings.TrimSpace(s.PremiseTitle)
		if s.PremiseID == "" && s.PremiseTitle == "" {
			add(f+".premise_title", "premise_id or premise_title is required", "missing")
		}
		if utf8.RuneCountInString(s.PremiseTitle) > TitleMaxLen {
			add(f+".premise_title", "must be at most 200 characters", "string_too_long")
		}
		if s.Score == nil {
			add(f+".score", "score is required", "missing")
		} else if math.IsNaN(*s.Score) || *s.Score < 0 || *s.Score > 10 {
			add(f+".score", "must be between 0.0 and 10.0", "range")
		} else {
			r := RoundScore(*s.Score)
			s.Score = &r
		}
		if s.Comment != nil && utf8.RuneCountInString(*s.Comment) > CommentMaxLen {
			add(f+".comment", "must be at most 2000 characters", "string_too_long")
		}
		out[i] = s
	}
	return out
}

func normalizeWinner(in UserInput, add func(string, string, string)) *WinnerInput {
	w := in.Winner
	if w == nil && (in.WinnerIndex != nil || in.WinnerTitle != "") {
		w = &WinnerInput{Title: in.WinnerTitle, Index: in.WinnerIndex, Score: in.WinnerScore}
	}
	if w == nil {
		add("winner", "resolved input requires winner info", "missing")
		return nil
	}
	c := *w
	c.Title, c.PremiseID = strings.TrimSpace(c.Title), strings.TrimSpace(c.PremiseID)
	if c.Index == nil {
		add("winner.index", "index is required (0, 1 or 2)", "missing")
	} else if *c.Index < 0 || *c.Index > MaxBufferSize-1 {
		add("winner.index", "must be between 0 and 2", "range")
	}
	if utf8.RuneCountInString(c.Title) > TitleMaxLen {
		add("winner.title", "must be at most 200 characters", "string_too_long")
	}
	if c.Score != nil {
		if math.IsNaN(*c.Score) || *c.Score < 0 || *c.Score > 10 {
			add("winner.score", "must be between 0.0 and 10.0", "range")
		} else {
			r := RoundScore(*c.Score)
			c.Score = &r
		}
	}
	return &c
}
