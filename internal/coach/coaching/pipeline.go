package coaching

import (
	"context"
	"errors"
	"fmt"
	"strings"

	"github.com/paige-dev/paige/internal/coach"
	"github.com/paige-dev/paige/internal/coach/prompts/coachagent"
	"github.com/paige-dev/paige/internal/coach/prompts/memoryfilter"
	"github.com/paige-dev/paige/internal/coach/store"
	"github.com/paige-dev/paige/internal/llm"
	"github.com/paige-dev/paige/internal/memory"
)

// MemoryResults is how many memories the pipeline recalls (FR-109).
const MemoryResults = 10

// ErrInvalidRequest wraps input errors of the flows (an empty plan, …).
var ErrInvalidRequest = errors.New("coaching: invalid request")

// RunPipeline runs the pipeline entry flow (see the package doc) for the
// active session and returns what it stored. Errors: an error wrapping
// [ErrInvalidRequest]; session.ErrNoActiveSession (scenario 9.13);
// llm.ErrNoModel when no API key is configured; the coach agent's error
// (scenario 9.4). In every error case nothing was stored.
func (s *Service) RunPipeline(ctx context.Context, in PipelineRequest) (Plan, error) {
	if strings.TrimSpace(in.PlanText) == "" || strings.TrimSpace(in.IssueSummary) == "" {
		return Plan{}, fmt.Errorf("%w: planText and issueSummary are required", ErrInvalidRequest)
	}
	sess, err := s.sess.Require()
	if err != nil {
		return Plan{}, err
	}
	if !s.llm.Available() {
		return Plan{}, llm.ErrNoModel
	}
	assessments, err := s.st.DreyfusAssessments(ctx)
	if err != nil {
		s.log.Warn("coaching pipeline: Dreyfus assessments unavailable, assuming novice", "err", err)
	}
	stage := StageFor(assessments, in.IssueSummary+" "+sess.IssueTitle)
	memories, retrieved := s.relevantMemories(ctx, sess.ID, in)

	user := coachagent.Assemble(in.PlanText, string(stage), memories)
	resp, res, err := llm.Call[coachagent.Response](ctx, s.llm, coachagent.Request(sess.ID, user))
	if err != nil {
		s.log.Error("coaching pipeline: coach agent failed; nothing stored", "session", sess.ID, "err", err)
		return Plan{}, fmt.Errorf("coach agent: %w", err)
	}
	plan, err := s.storePlan(ctx, sess.ID, in.PlanText, resp)
	if err != nil {
		return Plan{}, fmt.Errorf("store the coaching plan: %w", err)
	}
	plan.MemoriesRetrieved, plan.MemoriesUsed = retrieved, len(memories)
	if len(memories) == 0 && plan.MemoryConnection != nil {
		// Scenario 9.2, EC-56: with no memory kept there is nothing to
		// connect to; a connection the model wrote anyway is invented.
		s.log.Warn("coaching pipeline: memory connection without memories dropped", "session", sess.ID)
		plan.MemoryConnection = nil
	}
	s.logActive(ctx, coach.ActionCoachingPipeline, map[string]any{
		"planId": plan.Plan.ID, "phases": len(plan.Phases), "issueNumber": in.IssueNumber,
		"dreyfusStage": stage, "memoriesRetrieved": retrieved, "memoriesUsed": len(memories),
		"estimatedDifficulty": plan.EstimatedDifficulty, "model": res.Model, "latency_ms": ms(res.Latency),
	})
	return plan, nil
}

// relevantMemories recalls memories and lets Haiku keep the relevant ones.
// Any failure yields no memories (FR-111, D48); it returns the memories for
// the coach and how many the store returned.
func (s *Service) relevantMemories(ctx context.Context, sessionID string, in PipelineRequest) ([]coachagent.Memory, int) {
	if s.mem == nil {
		return nil, 0
	}
	results, err := s.mem.QueryMemories(ctx, memory.Query{Text: memoryQuery(in), NResults: MemoryResults})
	if err != nil {
		s.log.Warn("coaching pipeline: memory query failed, continuing without memories", "err", err)
		return nil, 0
	}
	if len(results) == 0 { // EC-55: nothing to filter
		return nil, 0
	}
	user := memoryfilter.Assemble(in.IssueSummary, in.PlanText, candidates(results))
	filtered, _, err := llm.Call[memoryfilter.Response](ctx, s.llm, memoryfilter.Request(sessionID, user))
	if err != nil {
		s.log.Warn("coaching pipeline: memory filtering failed, continuing without memories", "err", err)
		return nil, len(results)
	}
	return coachMemories(filtered), len(results)
}

// storePlan writes the plan, its phases and their hints in one transaction
// (FR-113): either everything is stored or nothing is.
func (s *Service) storePlan(ctx context.Context, sessionID, planText string, resp coachagent.Response) (Plan, error) {
	out := Plan{SessionID: sessionID, MemoryConnection: resp.MemoryConnection, EstimatedDifficulty: resp.EstimatedDifficulty}
	if out.MemoryConnection != nil && strings.TrimSpace(*out.MemoryConnection) == "" {
		out.MemoryConnection = nil
	}
	err := s.st.Update(ctx, func(tx *store.Tx) error {
		out.Phases = out.Phases[:0]
		p, err := tx.CreatePlan(ctx, sessionID, planText)
		if err != nil {
			return err
		}
		out.Plan = p
		for _, cp := range orderedPhases(resp.Phases) {
			ph, err := tx.CreatePhase(ctx, phaseRow(p.ID, cp))
			if err != nil {
				return err
			}
			pp := PlannedPhase{Phase: ph}
			files, lines := hintRows(cp)
			if pp.FileHints, err = createHints(ctx, tx, ph.ID, files); err != nil {
				return err
			}
			if pp.LineHints, err = createHints(ctx, tx, ph.ID, lines); err != nil {
				return err
			}
			out.Phases = append(out.Phases, pp)
		}
		return nil
	})
	return out, err
}

func createHints(ctx context.Context, tx *store.Tx, phaseID string, hints []coach.PhaseHint) ([]coach.PhaseHint, error) {
	out := make([]coach.PhaseHint, 0, len(hints))
	for _, h := range hints {
		h.PhaseID = phaseID
		stored, err := tx.CreatePhaseHint(ctx, h)
		if err != nil {
			return nil, err
		}
		out = append(out, stored)
	}
	return out, nil
}
