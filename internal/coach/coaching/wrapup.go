package coaching

import (
	"context"
	"errors"
	"fmt"

	"github.com/paige-dev/paige/internal/coach"
	"github.com/paige-dev/paige/internal/coach/prompts/dreyfusassessment"
	"github.com/paige-dev/paige/internal/coach/prompts/knowledgegaps"
	"github.com/paige-dev/paige/internal/coach/prompts/memorysummary"
	"github.com/paige-dev/paige/internal/coach/session"
	"github.com/paige-dev/paige/internal/coach/store"
	"github.com/paige-dev/paige/internal/llm"
	"github.com/paige-dev/paige/internal/memory"
)

// WrapUp is the outcome of [Service.EndSession] (paige_end_session's
// result and session:completed's payload).
type WrapUp struct {
	SessionID      string
	KnowledgeGaps  int // new knowledge_gaps rows
	GapsAddressed  int // earlier gaps this session covered (see coveredGaps)
	KataSpecs      int // new kata_specs rows
	DreyfusUpdates int // assessments inserted or changed
	MemoriesStored int // memories the memory store added
	// AlreadyCompleted is true when the session had been wrapped up before
	// and this call did nothing (EC-62).
	AlreadyCompleted bool
	// TranscriptTruncated reports that the transcript exceeded
	// memorysummary.MaxTranscriptChars and was cut (EC-63).
	TranscriptTruncated bool
	// Failed names the best-effort steps that failed ("knowledge_gaps",
	// "dreyfus_assessment", "memory_summarisation").
	Failed []string
	// Queued is true when the session ended but no model is configured:
	// its wrap-up is pending and runs at the next start with a model.
	Queued bool
}

// sessionData is what the wrap-up reads about the session before calling
// the models.
type sessionData struct {
	sess    coach.Session
	phases  []coach.Phase
	actions []coach.Action
	events  []progressEvent
}

// EndSession ends the active session at once (the read-only guard lifts
// with it) and then wraps it up (see the package doc) with the transcript
// Claude Code condensed (FR-117). With no active session it wraps up the
// latest session when that one ended without its wrap-up (the editor's
// session:end came first), and is a no-op when its wrap-up already ran
// (EC-62). Without a model the session still ends: the result says Queued
// and the wrap-up stays pending for the next start with a model. Errors:
// session.ErrNoActiveSession when there is nothing to end or wrap up
// (scenario 9.13); llm.ErrNoModel for an ended session offline (nothing
// changes). Failures of the three model steps are not errors: they are
// logged, listed in WrapUp.Failed and count zero (D49).
func (s *Service) EndSession(ctx context.Context, transcript string) (WrapUp, error) {
	s.wrapMu.Lock()
	defer s.wrapMu.Unlock()
	sess, err := s.sess.Require()
	if err == nil {
		// Ending first: the guard must not wait for three model calls.
		// The wrap-up the ending triggers in the background waits for
		// wrapMu and then finds this one's claim.
		if sess, err = s.sess.End(ctx); err != nil {
			return WrapUp{}, err
		}
		if !s.llm.Available() {
			return WrapUp{SessionID: sess.ID, Queued: true}, nil
		}
		return s.wrapUp(ctx, sess, transcript)
	}
	if errors.Is(err, session.ErrNoActiveSession) {
		latest, st, ok := s.latestEnded(ctx)
		switch {
		case ok && st == store.WrapUpDone:
			return WrapUp{SessionID: latest.ID, AlreadyCompleted: true}, nil
		case ok && (st == store.WrapUpPending || st == store.WrapUpRunning):
			sess, err = latest, nil
		}
	}
	if err != nil {
		return WrapUp{}, err
	}
	return s.wrapUp(ctx, sess, transcript)
}

// WrapUpSession runs the wrap-up of the session with id if it has not run
// (the session is active or ended with its wrap-up pending); otherwise it
// returns AlreadyCompleted. Errors: llm.ErrNoModel offline (the wrap-up
// stays pending), store errors.
func (s *Service) WrapUpSession(ctx context.Context, id, transcript string) (WrapUp, error) {
	s.wrapMu.Lock()
	defer s.wrapMu.Unlock()
	sess, err := s.st.Session(ctx, id)
	if err != nil {
		return WrapUp{}, fmt.Errorf("find session: %w", err)
	}
	return s.wrapUp(ctx, sess, transcript)
}

// latestEnded returns the latest session and its wrap-up status when it is
// not active.
func (s *Service) latestEnded(ctx context.Context) (coach.Session, store.WrapUpStatus, bool) {
	latest, err := s.st.Sessions(ctx, store.SessionFilter{Limit: 1})
	if err != nil || len(latest) == 0 || latest[0].Status == coach.SessionActive {
		return coach.Session{}, "", false
	}
	st, err := s.st.SessionWrapUp(ctx, latest[0].ID)
	return latest[0], st, err == nil
}

// wrapUp claims sess's wrap-up (once per session: a session already
// wrapped up, or being wrapped up, returns AlreadyCompleted), runs the
// three steps and completes the session. Called with wrapMu held.
func (s *Service) wrapUp(ctx context.Context, sess coach.Session, transcript string) (WrapUp, error) {
	if !s.llm.Available() {
		return WrapUp{}, llm.ErrNoModel
	}
	claimed, err := s.st.ClaimWrapUp(ctx, sess.ID)
	if err != nil {
		return WrapUp{}, fmt.Errorf("claim the wrap-up: %w", err)
	}
	if !claimed {
		st, _ := s.st.SessionWrapUp(ctx, sess.ID)
		if st != store.WrapUpRunning { // running: left by a stopped run, taken over
			return WrapUp{SessionID: sess.ID, AlreadyCompleted: true}, nil
		}
	}
	out := WrapUp{SessionID: sess.ID, TranscriptTruncated: len(transcript) > memorysummary.MaxTranscriptChars}
	data := s.sessionData(ctx, sess)
	gaps, err := s.extractGaps(ctx, data, &out)
	if err != nil {
		s.stepFailed(&out, "knowledge_gaps", sess.ID, err)
	}
	if err := s.assessDreyfus(ctx, data, &out); err != nil {
		s.stepFailed(&out, "dreyfus_assessment", sess.ID, err)
	}
	if err := s.summariseMemories(ctx, data, transcript, gaps, &out); err != nil {
		s.stepFailed(&out, "memory_summarisation", sess.ID, err)
	}
	s.complete(context.WithoutCancel(ctx), sess, out)
	return out, nil
}

func (s *Service) stepFailed(out *WrapUp, step, sessionID string, err error) {
	out.Failed = append(out.Failed, step)
	s.log.Error("session wrap-up: step failed, continuing", "step", step, "session", sessionID, "err", err)
}

// complete marks the session completed (always, FR-124) and logs
// session_end. If another session became active meanwhile, only the row of
// the wrapped-up one is updated.
func (s *Service) complete(ctx context.Context, sess coach.Session, out WrapUp) {
	var err error
	if s.sess.ActiveID() == sess.ID {
		_, err = s.sess.End(ctx)
	} else {
		_, err = s.st.SetSessionStatus(ctx, sess.ID, coach.SessionCompleted)
	}
	if err != nil {
		s.log.Error("session wrap-up: cannot complete the session", "session", sess.ID, "err", err)
	}
	if err := s.st.SetWrapUpStatus(ctx, sess.ID, store.WrapUpDone); err != nil {
		s.log.Error("session wrap-up: cannot mark it done", "session", sess.ID, "err", err)
	}
	s.logAction(ctx, sess.ID, coach.ActionSessionEnd, map[string]any{
		"knowledgeGaps": out.KnowledgeGaps, "gapsAddressed": out.GapsAddressed, "kataSpecs": out.KataSpecs, "dreyfusUpdates": out.DreyfusUpdates,
		"memoriesStored": out.MemoriesStored, "transcriptTruncated": out.TranscriptTruncated, "failed": nonNil(out.Failed),
	})
}

// sessionData reads the session's plan, actions and progress events; what
// cannot be read is logged and left empty (the steps are best-effort).
func (s *Service) sessionData(ctx context.Context, sess coach.Session) sessionData {
	d := sessionData{sess: sess}
	_, phases, _, err := s.sess.Plan(ctx, sess.ID)
	if err != nil {
		s.log.Warn("session wrap-up: cannot read the plan", "err", err)
	}
	d.phases = phases
	if d.actions, err = s.st.RecentActions(ctx, store.ActionQuery{SessionID: sess.ID, Limit: knowledgegaps.MaxActions}); err != nil {
		s.log.Warn("session wrap-up: cannot read the action log", "err", err)
	}
	for _, ph := range phases {
		evs, err := s.st.ProgressEvents(ctx, ph.ID)
		if err != nil {
			s.log.Warn("session wrap-up: cannot read progress events", "phase", ph.ID, "err", err)
			continue
		}
		for _, e := range evs {
			d.events = append(d.events, progressEvent{ProgressEvent: e, PhaseNumber: ph.Number})
		}
	}
	return d
}

// extractGaps runs the knowledge gap extraction and stores its gaps and
// katas in one transaction, in which the earlier gaps this session covered
// are marked addressed ([coveredGaps]); it returns the stored gaps.
func (s *Service) extractGaps(ctx context.Context, d sessionData, out *WrapUp) ([]coach.KnowledgeGap, error) {
	earlier, err := s.st.KnowledgeGaps(ctx, store.GapFilter{Limit: 1000})
	if err != nil {
		return nil, fmt.Errorf("read earlier gaps: %w", err)
	}
	user := knowledgegaps.Assemble(gapActions(d.actions, d.events), gapPhases(d.phases), existingGaps(earlier))
	resp, _, err := llm.Call[knowledgegaps.Response](ctx, s.llm, knowledgegaps.Request(d.sess.ID, user))
	if err != nil {
		return nil, err
	}
	var gaps []coach.KnowledgeGap
	var covered []string
	katas, added := 0, 0
	err = s.st.Update(ctx, func(tx *store.Tx) error {
		gaps, katas, added = gaps[:0], 0, 0
		for _, g := range gapRows(d.sess.ID, resp.KnowledgeGaps) {
			stored, isNew, err := tx.RecordKnowledgeGap(ctx, g) // a recurring topic counts up its row
			if err != nil {
				return err
			}
			gaps = append(gaps, stored)
			if isNew {
				added++
			}
		}
		for i, k := range resp.KataSpecs {
			j := gapFor(k, i, gaps)
			if j < 0 || k.Title == "" {
				s.log.Warn("session wrap-up: kata dropped (no gap to attach it to, or no title)", "title", k.Title)
				continue
			}
			if _, err := tx.CreateKata(ctx, kataRow(gaps[j].ID, k)); err != nil {
				return err
			}
			katas++
		}
		covered = coveredGaps(d.sess.ID, earlier, gaps, d.phases)
		for _, id := range covered {
			if err := tx.SetGapAddressed(ctx, id, true); err != nil {
				return err
			}
		}
		return nil
	})
	if err != nil {
		return nil, fmt.Errorf("store gaps and katas: %w", err)
	}
	out.KnowledgeGaps, out.KataSpecs, out.GapsAddressed = added, katas, len(covered)
	return gaps, nil
}

// assessDreyfus runs the Dreyfus assessment over the accumulated evidence
// and upserts the changed assessments by skill area (FR-121).
func (s *Service) assessDreyfus(ctx context.Context, d sessionData, out *WrapUp) error {
	h, err := s.history(ctx, d.sess.ID)
	if err != nil {
		return fmt.Errorf("read the evidence: %w", err)
	}
	user := dreyfusassessment.Assemble(dreyfusEvidence(h), currentAssessments(h.Assessments), recentSession(d.phases, h.SessionHints))
	resp, _, err := llm.Call[dreyfusassessment.Response](ctx, s.llm, dreyfusassessment.Request(d.sess.ID, user))
	if err != nil {
		return err
	}
	changed := changedAssessments(h.Assessments, resp.Assessments)
	err = s.st.Update(ctx, func(tx *store.Tx) error {
		for _, a := range changed {
			if _, err := tx.UpsertDreyfus(ctx, a); err != nil {
				return err
			}
		}
		return nil
	})
	if err != nil {
		return fmt.Errorf("upsert assessments: %w", err)
	}
	out.DreyfusUpdates = len(changed)
	return nil
}

// summariseMemories runs the memory summarisation and stores the memories
// (FR-122, FR-123). Without a memory store there is nothing to keep them
// in, so the call is not made.
func (s *Service) summariseMemories(ctx context.Context, d sessionData, transcript string, gaps []coach.KnowledgeGap, out *WrapUp) error {
	if s.mem == nil {
		return errors.New("no memory store configured")
	}
	var phases []memorysummary.Phase
	for _, p := range d.phases {
		if p.Status == coach.PhaseComplete {
			phases = append(phases, memorysummary.Phase{Title: p.Title, Description: p.Description})
		}
	}
	var mgaps []memorysummary.Gap
	for _, g := range gaps {
		mgaps = append(mgaps, memorysummary.Gap{Topic: g.Topic, Severity: string(g.Severity)})
	}
	user := memorysummary.Assemble(transcript, d.sess.IssueTitle, phases, mgaps)
	resp, _, err := llm.Call[memorysummary.Response](ctx, s.llm, memorysummary.Request(d.sess.ID, user))
	if err != nil {
		return err
	}
	mems := make([]memory.Memory, 0, len(resp.Memories))
	for _, m := range resp.Memories {
		mems = append(mems, memory.Memory{Content: m.Content, Tags: m.Tags, Importance: m.Importance})
	}
	n, err := s.mem.AddMemories(ctx, d.sess.ID, ProjectName(d.sess), mems)
	if err != nil {
		return fmt.Errorf("add memories: %w", err)
	}
	out.MemoriesStored = n
	return nil
}

func nonNil(s []string) []string {
	if s == nil {
		return []string{}
	}
	return s
}
