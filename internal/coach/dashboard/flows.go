package dashboard

import (
	"context"
	"database/sql"
	"encoding/json"
	"errors"
	"fmt"
	"strings"
	"sync"

	"github.com/paige-dev/paige/internal/coach/prompts/issueassessment"
	"github.com/paige-dev/paige/internal/coach/prompts/learningmaterials"
	"github.com/paige-dev/paige/internal/coach/store"
	"github.com/paige-dev/paige/internal/llm"
	"github.com/paige-dev/paige/internal/memory"
)

// MaxMaterialGaps is how many knowledge gaps learning materials research
// (D87).
const MaxMaterialGaps = 5

// Limits of the context the issue assessment gets.
const (
	maxAssessmentGaps = 20
	maxRecentSessions = 10
	maxMemoryQuery    = 2000 // characters of issue titles in the memory query
)

// Issues runs the issue flow (scenario 12.2): gh issue list, related
// memories, Sonnet issue assessment with one retry. A gh failure returns
// its *GHError and no model call is made (scenario 12.5). Zero open issues
// answer an empty list without a model call (see the package doc).
func (s *Service) Issues(ctx context.Context) (DashboardIssues, error) {
	issues, err := s.gh.ListIssues(ctx)
	if err != nil {
		return DashboardIssues{}, err
	}
	if len(issues) == 0 {
		return DashboardIssues{Issues: []IssueSuggestion{}}, nil
	}
	mems := s.relatedMemories(ctx, issues)
	db := s.store.DB()
	stages, err := assessmentStages(ctx, db)
	if err != nil {
		return DashboardIssues{}, err
	}
	recent, err := recentSessions(ctx, db)
	if err != nil {
		return DashboardIssues{}, err
	}
	gaps, err := TopGaps(ctx, db, maxAssessmentGaps)
	if err != nil {
		return DashboardIssues{}, err
	}
	brief := make([]issueassessment.Gap, 0, len(gaps))
	for _, g := range gaps {
		brief = append(brief, issueassessment.Gap{Topic: g.Topic, Severity: g.Severity})
	}
	user := issueassessment.Assemble(issues, stages, recent, brief, mems)
	resp, _, err := llm.Call[issueassessment.Response](ctx, s.llm, issueassessment.Request(s.sessionID(), user))
	if err != nil {
		return DashboardIssues{}, err
	}
	return IssuesPayload(resp, issues), nil
}

// IssuesPayload maps the assessment to dashboard:issues. Assessed issues
// whose number gh did not list are dropped (the model may not invent
// issues) and titles are gh's.
func IssuesPayload(resp issueassessment.Response, listed []issueassessment.Issue) DashboardIssues {
	titles := make(map[int]string, len(listed))
	for _, is := range listed {
		titles[is.Number] = is.Title
	}
	out := DashboardIssues{Issues: []IssueSuggestion{}}
	for _, a := range resp.Issues {
		title, ok := titles[a.Number]
		if !ok {
			continue
		}
		out.Issues = append(out.Issues, IssueSuggestion{
			Number: a.Number, Title: title, Summary: a.Summary, Suitability: a.Suitability,
			SuitabilityReason: a.SuitabilityReason, EstimatedDifficulty: a.EstimatedDifficulty,
			RelevantSkills: nonNil(a.RelevantSkills), PriorityScore: a.PriorityScore,
			PriorityFactors:       PriorityFactors(a.PriorityFactors),
			LearningOpportunities: nonNil(a.LearningOpportunities),
		})
	}
	return out
}

// relatedMemories queries memory with the issue titles (D84). Memory being
// unavailable or failing means no memories (scenario 12.4).
func (s *Service) relatedMemories(ctx context.Context, issues []issueassessment.Issue) []issueassessment.Memory {
	if s.memory == nil {
		return nil
	}
	var b strings.Builder
	for _, is := range issues {
		if b.Len()+len(is.Title) > maxMemoryQuery {
			break
		}
		b.WriteString(is.Title)
		b.WriteString("\n")
	}
	res, err := s.memory.QueryMemories(ctx, memory.Query{Text: b.String()})
	if err != nil {
		s.log.Warn("dashboard: memory query failed; assessing without memories", "err", err)
		return nil
	}
	out := make([]issueassessment.Memory, 0, len(res))
	for _, r := range res {
		out = append(out, issueassessment.Memory{Content: r.Content})
	}
	return out
}

// Materials runs the learning materials flow (scenario 12.3): the top 5
// unaddressed gaps, Sonnet with web search, one retry. ok is false when
// there is no unaddressed gap: the call is skipped and nothing is sent
// (EC-85, EC-86). The answer is cached per research input (see
// materialsCache): asking again with the same gaps makes no model call.
func (s *Service) Materials(ctx context.Context) (out DashboardMaterials, ok bool, err error) {
	return s.materialsFor(ctx, false)
}

// materialsFor is [Service.Materials]; with refresh it researches again
// even when the cache holds materials for the same input, and caches the
// new answer.
func (s *Service) materialsFor(ctx context.Context, refresh bool) (out DashboardMaterials, ok bool, err error) {
	db := s.store.DB()
	gaps, err := TopGaps(ctx, db, MaxMaterialGaps)
	if err != nil || len(gaps) == 0 {
		return out, false, err
	}
	stages, err := assessmentStages(ctx, db)
	if err != nil {
		return out, false, err
	}
	katas, err := kataTitles(ctx, db)
	if err != nil {
		return out, false, err
	}
	user := learningmaterials.Assemble(gaps, TechStack(s.projectDir), katas)
	stage := OverallStage(stages)
	key := stage + "\x00" + user
	if cached, ok := s.materials.get(key); ok && !refresh {
		return cached, true, nil
	}
	req := learningmaterials.Request(s.sessionID(), stage, user)
	resp, _, err := llm.Call[learningmaterials.Response](ctx, s.llm, req)
	if err != nil {
		return out, true, err
	}
	out = MaterialsPayload(resp)
	s.materials.put(key, out)
	return out, true, nil
}

// materialsCache keeps the latest learning materials with what they were
// researched for (the gaps, stack, katas and stage as sent to the model):
// a dashboard:request whose research input is unchanged makes no model
// call; any change (a new or addressed gap, a new kata) researches again,
// and so does dashboard:refresh_materials. In memory only: a restart
// researches once more.
type materialsCache struct {
	mu  sync.Mutex
	key string
	out DashboardMaterials
}

func (c *materialsCache) get(key string) (DashboardMaterials, bool) {
	c.mu.Lock()
	defer c.mu.Unlock()
	return c.out, c.key != "" && c.key == key
}

func (c *materialsCache) put(key string, out DashboardMaterials) {
	c.mu.Lock()
	defer c.mu.Unlock()
	c.key, c.out = key, out
}

// MaterialsPayload maps the research reply to dashboard:materials.
func MaterialsPayload(resp learningmaterials.Response) DashboardMaterials {
	out := DashboardMaterials{Recommendations: []Recommendation{}}
	for _, r := range resp.Recommendations {
		rec := Recommendation{KnowledgeGap: r.KnowledgeGap, StudyOrder: r.StudyOrder,
			PracticeConnection: r.PracticeConnection, Resources: []Resource{}}
		for _, x := range r.Resources {
			rec.Resources = append(rec.Resources, Resource(x))
		}
		out.Recommendations = append(out.Recommendations, rec)
	}
	return out
}

// TopGaps returns up to limit unaddressed knowledge gaps, most severe first
// (high, medium, low), then most frequent, then most recent (D87). A topic
// recorded by several sessions is listed once, with its most severe row.
func TopGaps(ctx context.Context, db *sql.DB, limit int) ([]learningmaterials.Gap, error) {
	rows, err := db.QueryContext(ctx, `SELECT topic, severity, related_concepts, frequency FROM knowledge_gaps
		WHERE addressed = 0
		ORDER BY CASE severity WHEN 'high' THEN 0 WHEN 'medium' THEN 1 ELSE 2 END, frequency DESC, last_encountered_at DESC, id`)
	if err != nil {
		return nil, fmt.Errorf("top gaps: %w", err)
	}
	defer rows.Close()
	seen := map[string]bool{}
	var out []learningmaterials.Gap
	for rows.Next() && len(out) < limit {
		var g learningmaterials.Gap
		var rel string
		if err := rows.Scan(&g.Topic, &g.Severity, &rel, &g.Frequency); err != nil {
			return nil, fmt.Errorf("top gaps: %w", err)
		}
		key := strings.ToLower(strings.TrimSpace(g.Topic))
		if seen[key] {
			continue
		}
		seen[key] = true
		if json.Unmarshal([]byte(rel), &g.RelatedConcepts) != nil {
			g.RelatedConcepts = nil
		}
		out = append(out, g)
	}
	return out, rows.Err()
}

func assessmentStages(ctx context.Context, db *sql.DB) ([]issueassessment.Stage, error) {
	out, err := store.QueryAll(ctx, db, func(r store.Scanner) (st issueassessment.Stage, err error) {
		err = r.Scan(&st.SkillArea, &st.Stage, &st.Confidence)
		return st, err
	}, `SELECT skill_area, stage, confidence FROM dreyfus_assessments ORDER BY skill_area`)
	if err != nil {
		return nil, fmt.Errorf("dreyfus stages: %w", err)
	}
	return out, nil
}

func recentSessions(ctx context.Context, db *sql.DB) ([]issueassessment.RecentSession, error) {
	out, err := store.QueryAll(ctx, db, func(r store.Scanner) (rs issueassessment.RecentSession, err error) {
		var title sql.NullString
		err = r.Scan(&title, &rs.CompletedAt)
		rs.IssueTitle = nonEmpty(title)
		return rs, err
	}, `SELECT issue_title, ended_at FROM sessions
		WHERE status = 'completed' AND ended_at IS NOT NULL ORDER BY ended_at DESC LIMIT ?`, maxRecentSessions)
	if err != nil {
		return nil, fmt.Errorf("recent sessions: %w", err)
	}
	return out, nil
}

func kataTitles(ctx context.Context, db *sql.DB) ([]string, error) {
	out, err := store.QueryAll(ctx, db, func(r store.Scanner) (t string, err error) {
		err = r.Scan(&t)
		return t, err
	}, `SELECT title FROM kata_specs ORDER BY title`)
	if err != nil {
		return nil, fmt.Errorf("kata titles: %w", err)
	}
	return out, nil
}

// DescribeError turns a flow failure into the message for
// dashboard:issues_error / dashboard:materials_error, prefixed by what
// failed (FR-179).
func DescribeError(what string, err error) string {
	var gh *GHError
	if errors.As(err, &gh) {
		return gh.Message
	}
	var (
		api     *llm.APIError
		refusal *llm.RefusalError
		tooLong *llm.MaxTokensError
		invalid *llm.InvalidReplyError
	)
	reason := "Claude could not be reached"
	switch {
	case errors.Is(err, llm.ErrNoModel):
		reason = "no Claude model is configured (set ANTHROPIC_API_KEY)"
	case errors.Is(err, context.DeadlineExceeded):
		reason = "Claude took too long to answer"
	case errors.Is(err, context.Canceled):
		reason = "the server is shutting down"
	case errors.As(err, &refusal):
		reason = "Claude declined to answer"
	case errors.As(err, &tooLong):
		reason = "Claude's answer was too long"
	case errors.As(err, &invalid):
		reason = "Claude's answer could not be read"
	case errors.As(err, &api) && (api.StatusCode == 401 || api.StatusCode == 403):
		reason = "Claude rejected the API key"
	case errors.As(err, &api) && api.StatusCode == 429:
		reason = "Claude is rate limited; try again in a minute"
	case errors.As(err, &api) && api.StatusCode >= 500:
		reason = "Claude is unavailable right now; try again later"
	case errors.As(err, &api):
		reason = fmt.Sprintf("Claude answered HTTP %d", api.StatusCode)
	}
	return what + " failed: " + reason
}

func nonNil(s []string) []string {
	if s == nil {
		return []string{}
	}
	return s
}
