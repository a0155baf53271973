package seed

import (
	"errors"
	"fmt"
	"path/filepath"
	"strings"
	"testing"

	"github.com/google/go-cmp/cmp"
)

func TestResolveID(t *testing.T) {
	ids := []string{"prop_001", "prop_002", "abcd", "abcdef12"}
	tests := []struct {
		prefix string
		want   string
		err    error
	}{
		{"prop_001", "prop_001", nil},
		{"prop_00", "", ErrIDAmbiguous},
		{"prop_0011", "", ErrIDNotFound},
		{"abcd", "abcd", nil}, // exact match wins over the longer id
		{"abcde", "abcdef12", nil},
		{"abc", "", ErrIDTooShort},
		{"zzzz", "", ErrIDNotFound},
	}
	for _, tt := range tests {
		t.Run(tt.prefix, func(t *testing.T) {
			got, err := ResolveID(ids, tt.prefix, "proposal")
			if !errors.Is(err, tt.err) || got != tt.want {
				t.Errorf("ResolveID(%q) = %q, %v; want %q, %v", tt.prefix, got, err, tt.want, tt.err)
			}
		})
	}
	_, err := ResolveID(ids, "prop", "proposal")
	if err == nil || !strings.Contains(err.Error(), "prop_001, prop_002") {
		t.Errorf("ambiguous error %q does not list the matches", err)
	}
	if _, err := ResolveID([]string{"ab"}, "ab", "proposal"); err != nil {
		t.Errorf("exact short id rejected: %v", err)
	}
}

func TestAddProposalsDeduplicates(t *testing.T) {
	path := seedFile(t, fixture(t, "valid-seed.json"))
	in := []Proposal{
		{Type: TypePattern, Content: "Prefers TypeScript over Python for all projects.", Source: "s1"},                        // a learning
		{Type: TypePattern, Content: "prefers chart.js over  D3 for data visualization", Source: "s1"},                        // pending
		{Type: TypeSelfKnowledge, Content: "Should ask clarifying questions before diving into implementation", Source: "s1"}, // rejected
		{Type: TypeInsight, Content: "Deploys on Fridays", Source: "s1", Method: MethodACR, Confidence: ptr(0.8)},
		{Type: TypeInsight, Content: "Deploys on Fridays!", Source: "s1"}, // same batch
	}
	added, err := AddProposals(path, in, nil)
	if err != nil || added != 1 {
		t.Fatalf("AddProposals = %d, %v; want 1", added, err)
	}
	s := mustLoad(t, path)
	got := s.State.Proposals[len(s.State.Proposals)-1]
	if got.Content != "Deploys on Fridays" || got.Status != StatusPending || len(got.ID) != 12 || !IsDatetime(got.ExtractedAt) || *got.Confidence != 0.8 {
		t.Errorf("added proposal = %+v", got)
	}
	if log := gitLog(t, filepath.Dir(path)); log[0] != "Learn: 1 new proposal\n\n"+CommitTrailer {
		t.Errorf("commit = %q", log[0])
	}
	if again, err := AddProposals(path, in, nil); err != nil || again != 0 {
		t.Errorf("second AddProposals = %d, %v; want 0", again, err)
	}
	if n := len(gitLog(t, filepath.Dir(path))); n != 2 {
		t.Errorf("commits = %d, want 2 (nothing added, nothing committed)", n)
	}
}

func TestAddProposalsRejectsInvalidBatch(t *testing.T) {
	path := seedFile(t, fixture(t, "valid-seed.json"))
	_, err := AddProposals(path, []Proposal{{Type: TypeInsight, Content: "ok", Source: "s"}, {Type: "habit", Content: "x", Source: "s"}}, noGit)
	if !errors.Is(err, ErrInvalidInput) {
		t.Fatalf("err = %v, want ErrInvalidInput", err)
	}
	if n := len(mustLoad(t, path).State.Proposals); n != 3 {
		t.Errorf("proposals = %d, want 3 (batch not applied)", n)
	}
}

func TestAcceptAndRejectProposal(t *testing.T) {
	path := seedFile(t, fixture(t, "valid-seed.json"))
	if _, err := AddProposals(path, []Proposal{{ID: "zz_conf", Type: TypeInsight, Content: "Likes tables", Source: "s", Confidence: ptr(0.5)}}, nil); err != nil {
		t.Fatal(err)
	}
	p, _, err := AcceptProposal(path, "prop_001", nil)
	if err != nil || p.Status != StatusAccepted || !IsDatetime(p.DecidedAt) {
		t.Fatalf("AcceptProposal = %+v, %v", p, err)
	}
	if _, _, err := RejectProposal(path, "zz_c", nil); err != nil {
		t.Fatal(err)
	}
	s := mustLoad(t, path)
	last := s.Learned.Patterns[len(s.Learned.Patterns)-1]
	if last.ID != "prop_001" || !last.Confirmed || last.Content != "Prefers Chart.js over D3 for data visualization" || !IsDatetime(last.ConfirmedAt) {
		t.Errorf("accepted learning = %+v", last)
	}
	wantStats := &ExtractionStats{Accepted: 1, Rejected: 1,
		ByType:          TypeCounts{Pattern: Counts{Accepted: 1}, Insight: Counts{Rejected: 1}},
		ConfidenceSum:   Counts{Rejected: 0.5},
		ConfidenceCount: Counts{Rejected: 1}}
	if diff := cmp.Diff(wantStats, s.State.ExtractionStats); diff != "" {
		t.Errorf("stats (-want +got):\n%s", diff)
	}
	log := gitLog(t, filepath.Dir(path))
	if !strings.HasPrefix(log[0], "Reject: rejected insight zz_conf") || !strings.HasPrefix(log[1], "Confirm: accepted pattern prop_001") {
		t.Errorf("log = %q", log[:2])
	}
	if _, _, err := AcceptProposal(path, "prop_002", nil); !errors.Is(err, ErrNotPending) {
		t.Errorf("accepting a decided proposal: err = %v, want ErrNotPending", err)
	}
	if _, _, err := AcceptProposal(path, "pro", nil); !errors.Is(err, ErrIDTooShort) {
		t.Errorf("short prefix: err = %v, want ErrIDTooShort", err)
	}
}

func TestDecideAllAndClean(t *testing.T) {
	s, err := Decode(fixture(t, "valid-seed.json"))
	if err != nil {
		t.Fatal(err)
	}
	if _, err := MergeProposals(s, []Proposal{{Type: TypeInsight, Content: "a", Source: "s"}, {Type: TypePattern, Content: "b", Source: "s"}}, "2026-02-01T00:00:00Z"); err != nil {
		t.Fatal(err)
	}
	if n := DecideAll(s, false, "2026-02-01T00:00:00Z"); n != 3 {
		t.Errorf("DecideAll = %d, want 3", n)
	}
	if n := DecideAll(s, true, "2026-02-01T00:00:00Z"); n != 0 {
		t.Errorf("second DecideAll = %d, want 0", n)
	}
	if n := CleanRejected(s); n != 4 {
		t.Errorf("CleanRejected = %d, want 4", n)
	}
	if len(s.State.Proposals) != 1 || s.State.Proposals[0].Status != StatusAccepted {
		t.Errorf("proposals after clean = %+v", s.State.Proposals)
	}
}

func TestAddLearningAndForget(t *testing.T) {
	s := Defaults()
	l, err := AddLearning(s, TypeSelfKnowledge, "  Over-explains  ", "2026-02-01T00:00:00Z")
	if err != nil || l.Content != "Over-explains" || !l.Confirmed || l.Source != "manual" {
		t.Fatalf("AddLearning = %+v, %v", l, err)
	}
	if _, err := AddLearning(s, "habit", "x", "2026-02-01T00:00:00Z"); !errors.Is(err, ErrInvalidInput) {
		t.Errorf("unknown type: err = %v", err)
	}
	if v := ValidateSeed(s); !v.Valid {
		t.Fatalf("seed invalid after AddLearning: %+v", v.Errors)
	}
	got, err := Forget(s, l.ID[:6])
	if err != nil || got.ID != l.ID || len(s.Learned.SelfKnowledge) != 0 {
		t.Errorf("Forget = %+v, %v; left %d", got, err, len(s.Learned.SelfKnowledge))
	}
	if _, err := Forget(s, "nope1"); !errors.Is(err, ErrIDNotFound) {
		t.Errorf("Forget(missing) err = %v", err)
	}
}

func TestReview(t *testing.T) {
	path := seedFile(t, fixture(t, "valid-seed.json"))
	if _, err := AddProposals(path, []Proposal{
		{ID: "p2aaaa", Type: TypeInsight, Content: "two", Source: "s"},
		{ID: "p3aaaa", Type: TypeInsight, Content: "three", Source: "s"},
		{ID: "p4aaaa", Type: TypeInsight, Content: "four", Source: "s"},
	}, noGit); err != nil {
		t.Fatal(err)
	}
	var out strings.Builder
	sum, err := Review(strings.NewReader("x\na\nreject\ns\nq\n"), &out, path, noGit)
	if err != nil {
		t.Fatal(err)
	}
	if diff := cmp.Diff(ReviewSummary{Accepted: 1, Rejected: 1, Skipped: 1, Quit: true}, sum); diff != "" {
		t.Errorf("summary (-want +got):\n%s", diff)
	}
	if !strings.Contains(out.String(), "Please answer a, r, s or q.") || !strings.Contains(out.String(), "[1/4] prop_001") {
		t.Errorf("review output:\n%s", out.String())
	}
	status := map[string]string{}
	for _, p := range mustLoad(t, path).State.Proposals {
		status[p.ID] = p.Status
	}
	want := map[string]string{"prop_001": "accepted", "prop_002": "accepted", "prop_003": "rejected", "p2aaaa": "rejected", "p3aaaa": "pending", "p4aaaa": "pending"}
	if diff := cmp.Diff(want, status); diff != "" {
		t.Errorf("statuses (-want +got):\n%s", diff)
	}
	// End of input quits without error.
	if sum, err := Review(strings.NewReader(""), &out, path, noGit); err != nil || !sum.Quit {
		t.Errorf("Review(EOF) = %+v, %v", sum, err)
	}
}

func TestConcurrentAddProposalsLoseNothing(t *testing.T) {
	path := seedFile(t, fixture(t, "valid-seed.json"))
	LoadWithGit(path, nil)
	const n = 8
	errs := make(chan error, n)
	for i := range n {
		go func() {
			_, err := AddProposals(path, []Proposal{{Type: TypeInsight, Content: fmt.Sprintf("concurrent %d", i), Source: "s"}}, nil)
			errs <- err
		}()
	}
	for range n {
		if err := <-errs; err != nil {
			t.Fatal(err)
		}
	}
	if got := len(mustLoad(t, path).State.Proposals); got != 3+n {
		t.Errorf("proposals = %d, want %d", got, 3+n)
	}
	if got := len(gitLog(t, filepath.Dir(path))); got != 1+n {
		t.Errorf("commits = %d, want %d", got, 1+n)
	}
}
