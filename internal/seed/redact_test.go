package seed

import (
	"errors"
	"os/exec"
	"path/filepath"
	"strings"
	"testing"

	"github.com/paige-dev/paige/internal/testenv"
)

// TestProposalsAndLearningsStoreNoSecret: a secret in a proposal is
// neither in seed.json nor anywhere in its git history (diffs and commit
// messages), also after the proposal is accepted.
func TestProposalsAndLearningsStoreNoSecret(t *testing.T) {
	path := seedFile(t, nil)
	dir := filepath.Dir(path)
	if res, err := LoadWithGit(path, nil); err != nil {
		t.Fatalf("LoadWithGit = %+v", res)
	}
	in := []Proposal{{Type: TypeInsight, Content: "Deploys with AWS key AKIAIOSFODNN7EXAMPLE and password=hunter22", Source: "session:1"}}
	if n, err := AddProposals(path, in, nil); err != nil || n != 1 {
		t.Fatalf("AddProposals = %d, %v", n, err)
	}
	s := mustLoad(t, path)
	id := s.State.Proposals[len(s.State.Proposals)-1].ID
	if _, _, err := AcceptProposal(path, id, nil); err != nil {
		t.Fatal(err)
	}
	history, err := exec.Command("git", "-C", dir, "log", "-p", "--all").Output()
	if err != nil {
		t.Fatal(err)
	}
	for _, secret := range []string{"AKIAIOSFODNN7EXAMPLE", "hunter22"} {
		if strings.Contains(string(testenv.ReadFile(t, path)), secret) || strings.Contains(string(history), secret) {
			t.Errorf("%q is stored", secret)
		}
	}
	if got := mustLoad(t, path).Learned.Insights; len(got) == 0 || !strings.Contains(got[len(got)-1].Content, "[REDACTED:aws-access-key]") {
		t.Errorf("accepted learning %+v, want the redacted content", got)
	}
}

func TestAddLearningRedacts(t *testing.T) {
	s := Defaults()
	l, err := AddLearning(s, TypePattern, "Uses token ghp_abcdefghijklmnopqrstuvwxyz0123 for CI", "2026-02-01T00:00:00Z")
	if err != nil || l.Content != "Uses token [REDACTED:github-token] for CI" {
		t.Fatalf("AddLearning = %+v, %v", l, err)
	}
	if _, err := AddLearning(s, TypePattern, "<private>all of it</private>", "2026-02-01T00:00:00Z"); !errors.Is(err, ErrInvalidInput) {
		t.Errorf("all-private learning: err = %v, want ErrInvalidInput", err)
	}
	if _, err := MergeProposals(s, []Proposal{{Type: TypePattern, Content: "<private>x</private>", Source: "s"}}, "2026-02-01T00:00:00Z"); !errors.Is(err, ErrInvalidInput) {
		t.Errorf("all-private proposal: err = %v, want ErrInvalidInput", err)
	}
}
