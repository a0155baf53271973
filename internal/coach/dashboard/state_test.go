package dashboard

import (
	"context"
	"encoding/json"
	"sync"
	"testing"
	"time"

	"github.com/google/go-cmp/cmp"

	"github.com/paige-dev/paige/internal/coach"
	"github.com/paige-dev/paige/internal/coach/store"
)

var now0 = time.Date(2026, 2, 11, 12, 0, 0, 0, time.UTC)

// clock is a settable time source for the store.
type clock struct {
	mu sync.Mutex
	t  time.Time
}

func (c *clock) Now() time.Time  { c.mu.Lock(); defer c.mu.Unlock(); return c.t }
func (c *clock) Set(t time.Time) { c.mu.Lock(); c.t = t; c.mu.Unlock() }

func openStore(t testing.TB) (*store.Store, *clock) {
	t.Helper()
	st, err := store.Open(context.Background(), t.TempDir())
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { st.Close() })
	c := &clock{t: now0}
	st.Now = c.Now
	return st, c
}

func must[T any](t testing.TB) func(T, error) T {
	return func(v T, err error) T {
		t.Helper()
		if err != nil {
			t.Fatal(err)
		}
		return v
	}
}

// completedSession stores a session that ran from start for minutes and
// completed, on issue (nil: none).
func completedSession(t testing.TB, st *store.Store, c *clock, start time.Time, minutes int, issue *int) coach.Session {
	t.Helper()
	ctx := context.Background()
	c.Set(start)
	s := must[coach.Session](t)(st.CreateSession(ctx, store.NewSession{ProjectDir: "/p", IssueNumber: issue, IssueTitle: "t"}))
	c.Set(start.Add(time.Duration(minutes) * time.Minute))
	return must[coach.Session](t)(st.SetSessionStatus(ctx, s.ID, coach.SessionCompleted))
}

func intp(n int) *int { return &n }

// Scenario 12.9, EC-88, SC-091: an empty database reads as zeros and empty lists.
func TestStateEmpty(t *testing.T) {
	t.Parallel()
	st, _ := openStore(t)
	got, err := State(context.Background(), st.DB(), "", now0)
	if err != nil {
		t.Fatal(err)
	}
	want := DashboardState{Dreyfus: []DreyfusEntry{}, Stats: DashboardStats{Period: "all"},
		InProgressSessions: []InProgressSession{}, Katas: []KataSummary{}}
	if diff := cmp.Diff(want, got); diff != "" {
		t.Errorf("(-want +got):\n%s", diff)
	}
	b, _ := json.Marshal(got)
	const wantJSON = `{"dreyfus":[],"stats":{"period":"all","sessionsCompleted":0,"totalCoachingMinutes":0,"issuesWorkedOn":0,` +
		`"knowledgeGapsIdentified":0,"knowledgeGapsAddressed":0,"hintsUsed":0,"apiCostTotal":0,"apiCostUnpricedCalls":0},"inProgressSessions":[],"katas":[]}`
	if string(b) != wantJSON {
		t.Errorf("JSON:\n got %s\nwant %s", b, wantJSON)
	}
}

// seedPeriods stores three completed sessions (40, 20 and 2 days ago), an
// active one, an old addressed gap and a recent open one, an assessment,
// hint_used events (two recent, one old), API costs and a kata with three
// attempts.
func seedPeriods(t *testing.T, st *store.Store, c *clock) (active coach.Session, kata coach.KataSpec) {
	t.Helper()
	ctx := context.Background()
	old := completedSession(t, st, c, now0.Add(-40*24*time.Hour), 30, intp(1))
	completedSession(t, st, c, now0.Add(-20*24*time.Hour), 45, intp(2))
	recent := completedSession(t, st, c, now0.Add(-2*24*time.Hour), 90, intp(2))
	c.Set(now0.Add(-time.Hour))
	active = must[coach.Session](t)(st.CreateSession(ctx, store.NewSession{ProjectDir: "/p", IssueNumber: intp(7), IssueTitle: "Fix OAuth"}))

	// Gaps: one old (addressed), one recent (open).
	c.Set(now0.Add(-40 * 24 * time.Hour))
	oldGap := must[coach.KnowledgeGap](t)(st.CreateKnowledgeGap(ctx, coach.KnowledgeGap{SessionID: old.ID, Topic: "sql", Severity: coach.SeverityHigh}))
	if err := st.SetGapAddressed(ctx, oldGap.ID, true); err != nil {
		t.Fatal(err)
	}
	c.Set(now0.Add(-24 * time.Hour))
	newGap := must[coach.KnowledgeGap](t)(st.CreateKnowledgeGap(ctx, coach.KnowledgeGap{SessionID: recent.ID, Topic: "async", Severity: coach.SeverityMedium}))
	c.Set(now0.Add(-10 * 24 * time.Hour))
	must[coach.DreyfusAssessment](t)(st.UpsertDreyfus(ctx, coach.DreyfusAssessment{SkillArea: "testing", Stage: coach.Competent, Confidence: 0.7}))

	// Hints: two in the recent session, one in the old one.
	for _, s := range []coach.Session{recent, recent, old} {
		plan := must[coach.Plan](t)(st.CreatePlan(ctx, s.ID, "p"))
		ph := must[coach.Phase](t)(st.CreatePhase(ctx, coach.Phase{PlanID: plan.ID, Number: 1, Title: "x"}))
		must[coach.ProgressEvent](t)(st.AddProgressEvent(ctx, ph.ID, "hint_used", nil))
		must[coach.ProgressEvent](t)(st.AddProgressEvent(ctx, ph.ID, "review_requested", nil))
	}
	// API costs: one 40 days ago, two in the last day.
	for _, c := range []struct {
		at   time.Time
		cost float64
	}{{now0.Add(-40 * 24 * time.Hour), 1}, {now0.Add(-time.Hour), 0.25}, {now0.Add(-time.Minute), 0.0125}} {
		if err := st.InsertAPICall(ctx, coach.APICall{CallType: "coach_agent", Model: "m", CostEstimate: c.cost, CreatedAt: c.at, LatencyMs: 1}); err != nil {
			t.Fatal(err)
		}
	}
	// A call to a model with no known price 20 days ago: counted as
	// unpriced, never added as $0.
	if err := st.InsertAPICall(ctx, coach.APICall{CallType: "coach_agent", Model: "claude-new", CostUnknown: true,
		InputTokens: 10, OutputTokens: 5, CreatedAt: now0.Add(-20 * 24 * time.Hour), LatencyMs: 1}); err != nil {
		t.Fatal(err)
	}
	// A kata with two reviewed attempts and one unreviewed.
	kata = must[coach.KataSpec](t)(st.CreateKata(ctx, coach.KataSpec{KnowledgeGapID: newGap.ID, Title: "Await all",
		Constraints: []coach.KataConstraint{{Title: "a", MinLevel: 1}, {Title: "b", MinLevel: 3}}}))
	for _, lvl := range []*int{intp(3), nil, intp(5)} {
		must[int](t)(st.AppendKataAttempt(ctx, kata.ID, coach.KataAttempt{Code: "x", Level: lvl}))
	}
	return active, kata
}

// Scenario 12.10 and SC-083: stats follow the period; Dreyfus, in-progress
// sessions and katas do not.
func TestStatePeriods(t *testing.T) {
	t.Parallel()
	st, c := openStore(t)
	ctx := context.Background()
	active, kata := seedPeriods(t, st, c)

	tests := []struct {
		period Period
		want   DashboardStats
	}{
		{"7d", DashboardStats{Period: "7d", SessionsCompleted: 1, TotalCoachingMinutes: 90, IssuesWorkedOn: 2,
			KnowledgeGapsIdentified: 1, HintsUsed: 2, APICostTotal: 0.2625}},
		{"30d", DashboardStats{Period: "30d", SessionsCompleted: 2, TotalCoachingMinutes: 135, IssuesWorkedOn: 2,
			KnowledgeGapsIdentified: 1, HintsUsed: 2, APICostTotal: 0.2625, APICostUnpricedCalls: 1}},
		{"all", DashboardStats{Period: "all", SessionsCompleted: 3, TotalCoachingMinutes: 165, IssuesWorkedOn: 3,
			KnowledgeGapsIdentified: 2, KnowledgeGapsAddressed: 1, HintsUsed: 3, APICostTotal: 1.2625, APICostUnpricedCalls: 1}},
	}
	for _, tt := range tests {
		t.Run(string(tt.period), func(t *testing.T) {
			got, err := State(ctx, st.DB(), tt.period, now0)
			if err != nil {
				t.Fatal(err)
			}
			if diff := cmp.Diff(tt.want, got.Stats); diff != "" {
				t.Errorf("stats (-want +got):\n%s", diff)
			}
			wantRest := DashboardState{
				Dreyfus: []DreyfusEntry{{SkillArea: "testing", Stage: "competent", Confidence: 0.7, AssessedAt: "2026-02-01T12:00:00.000Z"}},
				InProgressSessions: []InProgressSession{{ID: active.ID, IssueNumber: intp(7), IssueTitle: strp("Fix OAuth"),
					StartedAt: "2026-02-11T11:00:00.000Z"}},
				Katas: []KataSummary{{ID: kata.ID, Title: "Await all", Topic: "async", AttemptsCount: 3, BestLevel: intp(5), ConstraintCount: 2}},
			}
			got.Stats = DashboardStats{}
			if diff := cmp.Diff(wantRest, got); diff != "" {
				t.Errorf("unfiltered parts (-want +got):\n%s", diff)
			}
		})
	}
	if _, err := State(ctx, st.DB(), "90d", now0); err == nil {
		t.Error("unknown period: got nil error")
	}
}

func strp(s string) *string { return &s }

func TestPeriodStart(t *testing.T) {
	t.Parallel()
	for _, tt := range []struct {
		p    Period
		want string
	}{{"7d", "2026-02-04T12:00:00.000Z"}, {"30d", "2026-01-12T12:00:00.000Z"}, {"all", ""}, {"", ""}} {
		got, err := PeriodStart(tt.p, now0)
		if err != nil || got != tt.want {
			t.Errorf("PeriodStart(%q): got %q, %v; want %q", tt.p, got, err, tt.want)
		}
	}
}

func TestSummariseKata(t *testing.T) {
	t.Parallel()
	tests := []struct {
		name, cons, attempts string
		want                 KataSummary
		bad                  bool
	}{
		{"fresh", `[]`, `[]`, KataSummary{}, false},
		{"unreviewed attempts", `[{"title":"a"}]`, `[{"code":"x"},{"code":"y"}]`, KataSummary{AttemptsCount: 2, ConstraintCount: 1}, false},
		{"best level", `[]`, `[{"code":"x","level":2},{"code":"y","level":7},{"code":"z","level":4}]`,
			KataSummary{AttemptsCount: 3, BestLevel: intp(7)}, false},
		{"broken json", `[`, `[]`, KataSummary{}, true},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			var got KataSummary
			err := SummariseKata(&got, tt.cons, tt.attempts)
			if (err != nil) != tt.bad {
				t.Fatalf("err: got %v, want error %v", err, tt.bad)
			}
			if diff := cmp.Diff(tt.want, got); !tt.bad && diff != "" {
				t.Errorf("(-want +got):\n%s", diff)
			}
		})
	}
}
