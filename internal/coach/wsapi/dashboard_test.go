package wsapi

import (
	"context"
	"encoding/json"
	"testing"

	"github.com/paige-dev/paige/internal/coach/dashboard"
)

// fakeDashboard answers Load with a fixed state and runs its flows
// synchronously, so the order of the messages is fixed.
type fakeDashboard struct {
	periods chan dashboard.Period
}

func (f *fakeDashboard) Load(_ context.Context, p dashboard.Period, sink dashboard.Sink) error {
	f.periods <- p
	sink.State(DashboardState{Dreyfus: []DreyfusEntry{}, Stats: DashboardStats{Period: p},
		InProgressSessions: []InProgressSession{}, Katas: []KataSummary{}})
	sink.Issues(DashboardIssues{Issues: []IssueSuggestion{{Number: 7, Title: "t", RelevantSkills: []string{}, LearningOpportunities: []string{}}}})
	sink.MaterialsError("Learning materials failed: x")
	return nil
}

func (f *fakeDashboard) RefreshIssues(sink dashboard.Sink) {
	sink.IssuesError("Issue assessment failed: y")
	sink.Materials(DashboardMaterials{Recommendations: []Recommendation{}})
}

func (f *fakeDashboard) RefreshMaterials(sink dashboard.Sink) {
	sink.MaterialsError("Learning materials failed: z")
}

// The dashboard adapter broadcasts each Sink call as its dashboard:*
// message, with the request's id, to every editor; an invalid period is
// refused before the service runs.
func TestDashboardHandlers(t *testing.T) {
	dash := &fakeDashboard{periods: make(chan dashboard.Period, 4)}
	h := newHarness(t, Options{Log: testLog(t), Extensions: Extensions{
		DashboardRequest: DashboardRequestHandler(dash), RefreshIssues: RefreshIssuesHandler(dash),
		RefreshMaterials: RefreshMaterialsHandler(dash)}})
	a, b := h.dial(t), h.dial(t)

	a.send(TypeDashboardRequest, map[string]any{"statsPeriod": "90d"})
	var e ConnectionError
	a.expect(TypeConnectionError, &e)
	if e.Code != CodeInvalidPayload {
		t.Errorf("code: got %q, want %q", e.Code, CodeInvalidPayload)
	}

	a.sendRaw(`{"type":"dashboard:request","payload":{"statsPeriod":"7d"},"id":"r1"}`)
	want := []struct{ typ, payload string }{
		{TypeDashboardState, `{"dreyfus":[],"stats":{"period":"7d","sessionsCompleted":0,"totalCoachingMinutes":0,"issuesWorkedOn":0,"knowledgeGapsIdentified":0,"knowledgeGapsAddressed":0,"hintsUsed":0,"apiCostTotal":0,"apiCostUnpricedCalls":0},"inProgressSessions":[],"katas":[]}`},
		{TypeDashboardIssues, `{"issues":[{"number":7,"title":"t","summary":"","suitability":"","suitabilityReason":"","estimatedDifficulty":"","relevantSkills":[],"priorityScore":0,"priorityFactors":{"userTagged":false,"similarToRecentWork":false,"addressesKnowledgeGap":false,"teamUrgency":""},"learningOpportunities":[]}]}`},
		{TypeDashboardMaterialsError, `{"error":"Learning materials failed: x"}`},
	}
	for _, c := range []*client{a, b} {
		for _, w := range want {
			env := c.expect(w.typ, nil)
			if string(env.Payload) != w.payload || env.ID != "r1" {
				t.Errorf("%s: got id %q payload %s, want r1 %s", w.typ, env.ID, env.Payload, w.payload)
			}
		}
	}
	if p := <-dash.periods; p != "7d" {
		t.Errorf("period: got %q, want 7d", p)
	}

	b.sendRaw(`{"type":"dashboard:refresh_issues","payload":{},"id":"r2"}`)
	for _, c := range []*client{a, b} {
		var et ErrorText
		if env := c.expect(TypeDashboardIssuesError, &et); env.ID != "r2" || et.Error != "Issue assessment failed: y" {
			t.Errorf("issues_error: got id %q %+v", env.ID, et)
		}
		var m json.RawMessage
		c.expect(TypeDashboardMaterials, &m)
		if string(m) != `{"recommendations":[]}` {
			t.Errorf("materials: got %s", m)
		}
	}
	a.sendRaw(`{"type":"dashboard:refresh_materials","payload":{},"id":"r3"}`)
	for _, c := range []*client{a, b} {
		var et ErrorText
		if env := c.expect(TypeDashboardMaterialsError, &et); env.ID != "r3" || et.Error != "Learning materials failed: z" {
			t.Errorf("materials_error: got id %q %+v", env.ID, et)
		}
	}
	if len(dash.periods) != 0 {
		t.Errorf("Load ran for an invalid period")
	}
}
