package tools

import (
	"context"
	"encoding/json"
	"fmt"
	"os"
	"path/filepath"
	"strings"

	"github.com/paige-dev/paige/internal/ideate/core"
)

// AskUserData is the ask_user prompt sent to the UI.
type AskUserData struct {
	Question      string          `json:"question"`
	Options       []AskUserOption `json:"options"`
	AllowFreeText bool            `json:"allow_free_text"`
	Context       string          `json:"context,omitempty"`
}

// AskUserOption is one selectable answer.
type AskUserOption struct {
	Label       string `json:"label"`
	Description string `json:"description,omitempty"`
}

func askUser(_ context.Context, e *Env, input json.RawMessage) Result {
	in, err := decode[struct {
		AskUserData
		AllowFreeText *bool `json:"allow_free_text"`
	}](input)
	if err != nil {
		return fail(err)
	}
	if err := required("question", in.Question); err != nil {
		return fail(err)
	}
	if n := len(in.Options); n < 2 || n > 5 {
		return fail(core.Validation(core.FieldError{Field: "options", Message: "needs 2 to 5 options", Type: "range"}))
	}
	for i, o := range in.Options {
		if strings.TrimSpace(o.Label) == "" {
			return fail(core.Validation(core.FieldError{Field: fmt.Sprintf("options.%d.label", i), Message: "is required", Type: "missing"}))
		}
	}
	data := in.AskUserData
	data.AllowFreeText = in.AllowFreeText == nil || *in.AllowFreeText
	ev := core.Event{Type: core.EventAskUser, Data: data}
	e.State.Awaiting, e.State.Pending = core.AwaitAskUser, &ev
	return Result{Output: map[string]any{"status": "awaiting_user_response",
		"message": "Question shown to the user. The flow pauses until the user responds."}, Pause: &ev}
}

func presentRound(ctx context.Context, e *Env, _ json.RawMessage) Result {
	if err := core.ValidateRoundPresentation(e.State); err != nil {
		return fail(err)
	}
	number := e.State.RoundNumber + 1
	round := core.Round{ID: e.newID(), SessionID: e.SessionID, RoundNumber: number, CreatedAt: e.now()}
	var stored []core.Premise
	var views []core.PremiseView
	for i, p := range e.State.Buffer {
		obv := p.ObviousnessScore
		sp := core.Premise{ID: e.newID(), Title: p.Title, Body: p.Body, PremiseType: p.PremiseType,
			ViolatedAxiom: p.ViolatedAxiom, CrossDomainSource: p.CrossDomainSource, SourceTitle: p.SourceTitle,
			PrimaryTitle: p.PrimaryTitle, SecondaryTitles: p.SecondaryTitles, ObviousnessScore: &obv, BufferIndex: i, CreatedAt: e.now()}
		stored = append(stored, sp)
		views = append(views, core.PremiseView{ID: sp.ID, PremiseText: p.PremiseText, Lineage: p.Lineage,
			ObviousnessScore: obv, RoundNumber: number, BufferIndex: i})
	}
	if err := e.Repo.SaveRound(ctx, round, stored); err != nil {
		return dbFail(e, "save round", err)
	}
	ev := core.Event{Type: core.EventPremises, Data: views}
	e.State.RoundNumber = number
	e.State.ResetForNextRound()
	e.State.Awaiting, e.State.Pending = core.AwaitScores, &ev
	return Result{Output: map[string]any{"status": "awaiting_user_scores", "round_number": number, "premises": views,
		"message": fmt.Sprintf("Round %d presented. The flow pauses until the user scores the premises or resolves the problem.", number)},
		Pause: &ev}
}

func generateFinalSpec(ctx context.Context, e *Env, input json.RawMessage) Result {
	if err := core.CheckFinalSpec(e.State); err != nil {
		return fail(err)
	}
	in, err := decode[struct {
		WinningTitle string `json:"winning_premise_title"`
		WinningBody  string `json:"winning_premise_body"`
		Problem      string `json:"problem_statement"`
		SpecContent  string `json:"spec_content"`
	}](input)
	if err != nil {
		return fail(err)
	}
	if err := required("winning_premise_title", in.WinningTitle, "winning_premise_body", in.WinningBody,
		"problem_statement", in.Problem, "spec_content", in.SpecContent); err != nil {
		return fail(err)
	}
	path, werr := writeSpec(e.SpecDir, e.SessionID, in.SpecContent)
	if werr != nil {
		if e.Log != nil {
			e.Log.Error("ghostpath: write spec", "session_id", e.SessionID, "err", werr)
		}
		return fail(core.NewError(core.CodeToolExecution, "Could not save the spec file; try again"))
	}
	if err := e.Repo.SetSpecPath(ctx, e.SessionID, path); err != nil {
		return dbFail(e, "record spec", err)
	}
	ev := core.Event{Type: core.EventFinalSpec, Data: in.SpecContent}
	e.State.SpecGenerated = true
	e.State.Awaiting, e.State.Pending = core.AwaitDone, &ev
	return Result{Output: map[string]any{"status": "ok", "download_url": e.SpecURL,
		"message": "Spec saved as a Markdown file and delivered to the user."}, Pause: &ev}
}

// SpecPath is where the final spec of a session is stored under dir.
func SpecPath(dir, sessionID string) string { return filepath.Join(dir, sessionID+".md") }

// writeSpec writes content atomically (temp file, fsync, rename).
func writeSpec(dir, sessionID, content string) (string, error) {
	if dir == "" {
		return "", fmt.Errorf("no spec directory configured")
	}
	if err := os.MkdirAll(dir, 0o755); err != nil {
		return "", err
	}
	path := SpecPath(dir, sessionID)
	f, err := os.CreateTemp(dir, ".spec-*.tmp")
	if err != nil {
		return "", err
	}
	defer os.Remove(f.Name())
	if _, err := f.WriteString(content); err != nil {
		f.Close()
		return "", err
	}
	if err := f.Sync(); err != nil {
		f.Close()
		return "", err
	}
	if err := f.Close(); err != nil {
		return "", err
	}
	return path, os.Rename(f.Name(), path)
}
