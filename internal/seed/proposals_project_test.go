package seed

import (
	"strings"
	"testing"
)

func projectProposals() []Proposal {
	c := func(v float64) *float64 { return &v }
	return []Proposal{
		{ID: "g", Type: TypePattern, Content: "Prefers short answers", Source: "session:1", ExtractedAt: "2026-12-01T00:00:00Z", Status: StatusPending, Confidence: c(0.9)},
		{ID: "b", Type: TypePattern, Content: "Runs mix test", Source: "session:2", ExtractedAt: "2026-12-02T00:00:00Z", Status: StatusPending, Confidence: c(0.95), Project: "/src/elixir/.git"},
		{ID: "a1", Type: TypePattern, Content: "Runs go test ./...", Source: "session:3", ExtractedAt: "2026-12-01T00:00:00Z", Status: StatusPending, Confidence: c(0.7), Project: "/src/paige/.git"},
		{ID: "a2", Type: TypePattern, Content: "Never force-push to main", Source: "session:4", ExtractedAt: "2026-12-03T00:00:00Z", Status: StatusPending, Confidence: c(0.7), Project: "/src/paige/.git"},
		{ID: "a3", Type: TypeInsight, Content: "Lints with staticcheck", Source: "session:5", ExtractedAt: "2026-12-02T00:00:00Z", Status: StatusPending, Confidence: c(0.8), Project: "/src/paige/.git"},
	}
}

// TestProposalsFor: a project's own proposals come first (by confidence,
// then the most recent), then those of no project; other projects' are
// left out; no project keeps every proposal.
func TestProposalsFor(t *testing.T) {
	ids := func(ps []Proposal) string {
		var s []string
		for _, p := range ps {
			s = append(s, p.ID)
		}
		return strings.Join(s, ",")
	}
	for _, tc := range []struct{ project, want string }{
		{"/src/paige/.git", "a3,a2,a1,g"},
		{"/src/elixir/.git", "b,g"},
		{"/src/other/.git", "g"},
		{"", "b,g,a3,a2,a1"},
	} {
		if got := ids(ProposalsFor(projectProposals(), tc.project)); got != tc.want {
			t.Errorf("ProposalsFor(%q) = %s, want %s", tc.project, got, tc.want)
		}
	}
}

// TestRenderContextForProject: the SessionStart context lists the
// session's project's proposals and the general ones, never another
// project's, and counts what it lists.
func TestRenderContextForProject(t *testing.T) {
	s := Defaults()
	s.Identity.PrincipalName = "Ada"
	s.State.Proposals = projectProposals()
	out := RenderContext(s, ContextOptions{Project: "/src/paige/.git"})
	for _, want := range []string{"Pending proposals (4):", `1. [insight] "Lints with staticcheck"`, "Never force-push to main", "Prefers short answers"} {
		if !strings.Contains(out, want) {
			t.Errorf("context lacks %q:\n%s", want, out)
		}
	}
	if strings.Contains(out, "mix test") {
		t.Errorf("another project's proposal reached the context:\n%s", out)
	}
	if len(s.State.Proposals) != 5 {
		t.Errorf("RenderContext changed the seed's proposals: %d left", len(s.State.Proposals))
	}
	if all := RenderContext(s, ContextOptions{}); !strings.Contains(all, "Pending proposals (5):") {
		t.Errorf("without a project every proposal is listed:\n%s", all)
	}
}
