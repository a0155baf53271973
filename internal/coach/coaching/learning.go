package coaching

import (
	"cmp"
	"encoding/json"
	"slices"
	"strings"

	"github.com/paige-dev/paige/internal/coach"
	"github.com/paige-dev/paige/internal/coach/prompts/dreyfusassessment"
	"github.com/paige-dev/paige/internal/coach/prompts/knowledgegaps"
	"github.com/paige-dev/paige/internal/sqlite"
)

// MaxExistingGaps bounds the earlier gaps sent to the gap extraction.
const MaxExistingGaps = 50

// MaxKataLevel is the top of the kata level scale (D16: levels 1–10).
const MaxKataLevel = 10

// gapActions renders the session's actions and progress events for the gap
// extraction, oldest first. Progress events appear as "progress:<type>"
// with their phase number.
func gapActions(actions []coach.Action, events []progressEvent) []knowledgegaps.Action {
	type item struct {
		at string
		a  knowledgegaps.Action
	}
	items := make([]item, 0, len(actions)+len(events))
	for _, a := range actions {
		at := sqlite.FormatTime(a.CreatedAt)
		items = append(items, item{at, knowledgegaps.Action{ActionType: string(a.Type), Data: rawOrNil(a.Data), CreatedAt: at}})
	}
	for _, e := range events {
		at := sqlite.FormatTime(e.CreatedAt)
		data := map[string]any{"phase": e.PhaseNumber}
		if d := rawOrNil(e.Data); d != nil {
			data["data"] = d
		}
		items = append(items, item{at, knowledgegaps.Action{ActionType: "progress:" + e.EventType, Data: data, CreatedAt: at}})
	}
	slices.SortStableFunc(items, func(x, y item) int { return cmp.Compare(x.at, y.at) })
	out := make([]knowledgegaps.Action, len(items))
	for i, it := range items {
		out[i] = it.a
	}
	return out
}

// progressEvent is a progress event with the number of its phase.
type progressEvent struct {
	coach.ProgressEvent
	PhaseNumber int
}

func rawOrNil(d json.RawMessage) any {
	if len(d) == 0 {
		return nil
	}
	return d
}

// gapPhases renders the plan's phases for the gap extraction.
func gapPhases(phases []coach.Phase) []knowledgegaps.Phase {
	out := make([]knowledgegaps.Phase, 0, len(phases))
	for _, p := range phases {
		out = append(out, knowledgegaps.Phase{Title: p.Title, Status: string(p.Status), HintLevel: string(p.HintLevel)})
	}
	return out
}

// existingGaps folds earlier gap rows by topic (case-insensitive), summing
// their frequency, most frequent first, at most MaxExistingGaps.
func existingGaps(gaps []coach.KnowledgeGap) []knowledgegaps.ExistingGap {
	idx := map[string]int{}
	var out []knowledgegaps.ExistingGap
	for _, g := range gaps {
		key := strings.ToLower(strings.TrimSpace(g.Topic))
		if i, ok := idx[key]; ok {
			out[i].Frequency += max(1, g.Frequency)
			continue
		}
		idx[key] = len(out)
		out = append(out, knowledgegaps.ExistingGap{Topic: g.Topic, Frequency: max(1, g.Frequency)})
	}
	slices.SortStableFunc(out, func(a, b knowledgegaps.ExistingGap) int { return cmp.Compare(b.Frequency, a.Frequency) })
	if len(out) > MaxExistingGaps {
		out = out[:MaxExistingGaps]
	}
	return out
}

// gapRows maps extracted gaps to knowledge_gaps rows of sessionID; gaps
// without a topic or with an unknown severity are dropped.
func gapRows(sessionID string, gaps []knowledgegaps.Gap) []coach.KnowledgeGap {
	var out []coach.KnowledgeGap
	for _, g := range gaps {
		sev := coach.Severity(g.Severity)
		if strings.TrimSpace(g.Topic) == "" || !sev.Valid() {
			continue
		}
		out = append(out, coach.KnowledgeGap{SessionID: sessionID, Topic: strings.TrimSpace(g.Topic), Severity: sev,
			Evidence: g.Evidence, RelatedConcepts: slices.Clone(g.RelatedConcepts)})
	}
	return out
}

// gapFor picks the gap a kata practises: the gap whose topic and related
// concepts share the most words with the kata's title and description; with
// no shared word, the i-th gap (the model lists katas in gap order), else
// the last. It returns -1 when there are no gaps (the kata cannot be
// stored: kata_specs.knowledge_gap_id is required).
func gapFor(k knowledgegaps.KataSpec, i int, gaps []coach.KnowledgeGap) int {
	if len(gaps) == 0 {
		return -1
	}
	words := Words(k.Title + " " + k.Description)
	best, bestScore := -1, 0
	for j, g := range gaps {
		score := overlap(words, Words(g.Topic+" "+strings.Join(g.RelatedConcepts, " ")))
		if score > bestScore {
			best, bestScore = j, score
		}
	}
	if best >= 0 {
		return best
	}
	return min(i, len(gaps)-1)
}

// kataRow maps an extracted kata to a kata_specs row. The extraction's test
// cases become the instructor notes (the reviewer sees them, the student
// does not, D69); its constraints become level-gated constraints (D16).
func kataRow(gapID string, k knowledgegaps.KataSpec) coach.KataSpec {
	return coach.KataSpec{KnowledgeGapID: gapID, Title: strings.TrimSpace(k.Title), Description: k.Description,
		ScaffoldingCode: k.ScaffoldingCode, InstructorNotes: instructorNotes(k),
		Constraints: kataConstraints(k.Constraints, k.FollowUpConstraint)}
}

func instructorNotes(k knowledgegaps.KataSpec) string {
	var tests []string
	for _, t := range k.TestCases {
		if t = strings.TrimSpace(t); t != "" {
			tests = append(tests, "- "+t)
		}
	}
	if len(tests) == 0 {
		return ""
	}
	return "Test cases the solution must pass:\n" + strings.Join(tests, "\n")
}

// kataConstraints gates constraints by level: the n constraints (the
// follow-up constraint last) get minLevel 1 + i·9/n, spreading them over
// levels 1–10 in the given order (four constraints: 1, 3, 5, 7). A
// "Title: description" constraint is split; otherwise the text is both.
func kataConstraints(constraints []string, followUp *string) []coach.KataConstraint {
	var texts []string
	for _, c := range constraints {
		if c = strings.TrimSpace(c); c != "" {
			texts = append(texts, c)
		}
	}
	if followUp != nil && strings.TrimSpace(*followUp) != "" {
		texts = append(texts, strings.TrimSpace(*followUp))
	}
	out := make([]coach.KataConstraint, 0, len(texts))
	for i, t := range texts {
		title := t
		if before, _, ok := strings.Cut(t, ": "); ok && strings.TrimSpace(before) != "" && len(before) <= 60 {
			title = strings.TrimSpace(before)
		}
		out = append(out, coach.KataConstraint{Title: title, Description: t, MinLevel: 1 + i*(MaxKataLevel-1)/len(texts)})
	}
	return out
}

// Hint trends reported to the Dreyfus assessment.
const (
	TrendFirstSession = "first_session"
	TrendDecreasing   = "decreasing"
	TrendStable       = "stable"
	TrendIncreasing   = "increasing"
)

// hintTrend compares this session's hint count with the mean of earlier
// sessions: more than 20 % below is decreasing, above is increasing.
func hintTrend(current int, previous []int) string {
	if len(previous) == 0 {
		return TrendFirstSession
	}
	sum := 0
	for _, p := range previous {
		sum += p
	}
	mean := float64(sum) / float64(len(previous))
	switch c := float64(current); {
	case c < mean*0.8:
		return TrendDecreasing
	case c > mean*1.2 && c-mean >= 1:
		return TrendIncreasing
	}
	return TrendStable
}

// history is the cross-session evidence the Dreyfus assessment works from
// (D47: accumulated, not only the latest session).
type history struct {
	Assessments    []coach.DreyfusAssessment
	Gaps           []coach.KnowledgeGap // every session's gaps, this one's included
	SessionHints   int                  // hint level changes this session
	EarlierHints   []int                // per earlier session
	CompletionRate float64              // completed phases / phases, all plans
}

// dreyfusEvidence builds one evidence row per skill area: every assessed
// area and every gap topic. Sessions counts the sessions with a gap on the
// area; the hint trend and completion rate are the developer's overall
// figures (Paige does not tag hints by skill area).
func dreyfusEvidence(h history) []dreyfusassessment.Evidence {
	var areas []string
	seen := map[string]bool{}
	add := func(a string) {
		key := strings.ToLower(strings.TrimSpace(a))
		if key != "" && !seen[key] {
			seen[key] = true
			areas = append(areas, strings.TrimSpace(a))
		}
	}
	for _, a := range h.Assessments {
		add(a.SkillArea)
	}
	for _, g := range h.Gaps {
		add(g.Topic)
	}
	trend := hintTrend(h.SessionHints, h.EarlierHints)
	out := make([]dreyfusassessment.Evidence, 0, len(areas))
	for _, area := range areas {
		words := Words(area)
		sessions := map[string]bool{}
		for _, g := range h.Gaps {
			if overlap(words, Words(g.Topic)) > 0 {
				sessions[g.SessionID] = true
			}
		}
		out = append(out, dreyfusassessment.Evidence{SkillArea: area, Sessions: len(sessions), HintTrend: trend,
			CompletionRate: h.CompletionRate})
	}
	return out
}

// currentAssessments renders the stored assessments for the model.
func currentAssessments(list []coach.DreyfusAssessment) []dreyfusassessment.Current {
	out := make([]dreyfusassessment.Current, 0, len(list))
	for _, a := range list {
		out = append(out, dreyfusassessment.Current{SkillArea: a.SkillArea, Stage: string(a.Stage), Confidence: a.Confidence})
	}
	return out
}

// recentSession summarises this session from its own records (D52).
func recentSession(phases []coach.Phase, hints int) dreyfusassessment.RecentSession {
	r := dreyfusassessment.RecentSession{HintsUsed: hints}
	for _, p := range phases {
		if p.Status == coach.PhaseComplete {
			r.PhasesCompleted++
			if p.HintLevel == coach.HintNone || p.HintLevel == "" {
				r.IndependentCompletions++
			}
		}
	}
	return r
}

// changedAssessments keeps the returned assessments that differ from the
// stored ones in stage or confidence, or are new (EC-59: no change, no
// upsert). Invalid stages, empty areas and confidences outside [0, 1] are
// dropped; a skill area repeated in the reply counts once (the last wins).
func changedAssessments(current []coach.DreyfusAssessment, got []dreyfusassessment.Assessment) []coach.DreyfusAssessment {
	stored := map[string]coach.DreyfusAssessment{}
	for _, a := range current {
		stored[a.SkillArea] = a
	}
	var out []coach.DreyfusAssessment
	pos := map[string]int{}
	for _, a := range got {
		area, stage := strings.TrimSpace(a.SkillArea), coach.DreyfusStage(a.Stage)
		if area == "" || !stage.Valid() || a.Confidence < 0 || a.Confidence > 1 {
			continue
		}
		if old, ok := stored[area]; ok && old.Stage == stage && old.Confidence == a.Confidence {
			continue
		}
		row := coach.DreyfusAssessment{SkillArea: area, Stage: stage, Confidence: a.Confidence, Evidence: a.Evidence}
		if i, ok := pos[area]; ok {
			out[i] = row
			continue
		}
		pos[area] = len(out)
		out = append(out, row)
	}
	return out
}
