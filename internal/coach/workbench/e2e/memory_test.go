package e2e

import (
	"context"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"github.com/paige-dev/paige/internal/coach/coaching"
	"github.com/paige-dev/paige/internal/embedding"
	"github.com/paige-dev/paige/internal/learn"
	"github.com/paige-dev/paige/internal/learn/knowledge"
	"github.com/paige-dev/paige/internal/learnseed"
	"github.com/paige-dev/paige/internal/memory"
	"github.com/paige-dev/paige/internal/seed"
	"github.com/paige-dev/paige/internal/testenv"
)

// TestMemoryJourney is the Memory page end to end: it fills the three
// stores the way Paige does (learned entries in DATA_DIR/knowledge, a seed
// proposal made by the learn → seed loop with its git commit, coach
// memories in DATA_DIR/memory.db), starts the real `paige serve`, runs
// web/workbench/e2e/memory.mjs in headless Chromium (search, pin, edit,
// accept, forget, edit and forget a memory) and then checks the stores on
// disk and the seed's git history. Screenshots go to
// PAIGE_E2E_SCREENSHOTS when set.
func TestMemoryJourney(t *testing.T) {
	d := newDemo(t)
	data, home := filepath.Join(d.tmp, "data"), filepath.Join(d.tmp, "home")
	st := fillStores(t, d.project, data, home)
	srv := startWorkbench(t, d.bin, []string{
		"PATH=" + testenv.ToolPath(t, "git"), "HOME=" + home, "HOST=127.0.0.1", "PROJECT_DIR=" + d.project, "DATA_DIR=" + data,
		"PAIGE_TOKEN=" + token, "PAIGE_OFFLINE=1", "LOG_FORMAT=json", "GIT_CONFIG_GLOBAL=" + os.DevNull, "GIT_CONFIG_NOSYSTEM=1",
	})
	ctx, cancel := context.WithTimeout(context.Background(), 5*time.Minute)
	defer cancel()
	if err := d.browser.Run(ctx, t, "e2e/memory.mjs", "WORKBENCH_URL="+srv.WorkbenchURL); err != nil {
		t.Fatalf("memory.mjs: %v\npaige serve log (tail):\n%s", err, testenv.Tail(srv.Logs.String(), 6000))
	}
	st.check(t)
}

// stores are what fillStores wrote, to check after the journey.
type stores struct {
	knowledge  *knowledge.Store
	entries    []learn.Entry // procedure, preference (proposed), rule
	proposalID string
	seedPath   string
	memoryDB   string
}

func fillStores(t *testing.T, project, data, home string) *stores {
	t.Helper()
	ks, err := knowledge.Open(filepath.Join(data, "knowledge"))
	if err != nil {
		t.Fatal(err)
	}
	es, err := ks.Append(
		learn.Entry{Type: learn.Procedure, Content: "Start the app with mix phx.server", Confidence: 0.8, Evidence: "ran mix phx.server 4 times in 2 sessions", Source: "session:e2e-session-1"},
		learn.Entry{Type: learn.Preference, Content: "User prefers pnpm over npm", Confidence: 0.9, Evidence: "User said: use pnpm, not npm", Source: "session:e2e-session-2"},
		learn.Entry{Type: learn.Rule, Content: "Never force-push to main", Confidence: 0.95, Source: "session:e2e-session-2"},
	)
	if err != nil {
		t.Fatal(err)
	}
	seedPath := seed.DefaultPath(home)
	t.Setenv("GIT_CONFIG_GLOBAL", os.DevNull)
	res, err := learnseed.Run(es[1:2], learnseed.Options{SeedPath: seedPath, StoreDir: ks.Dir(), SessionID: "e2e-session-2", Method: seed.MethodRegex})
	if err != nil || len(res.Proposed) != 1 {
		t.Fatalf("loop: %+v, %v", res, err)
	}
	db := filepath.Join(data, "memory.db")
	mem, err := memory.OpenEmbedded(context.Background(), db, embedding.NewLexical(0), nil)
	if err != nil {
		t.Fatal(err)
	}
	defer mem.Close()
	if _, err := mem.AddMemories(context.Background(), "e2e-coach", coaching.ProjectKey(project), []memory.Memory{
		{Content: "Paired on the OAuth refresh race", Importance: "high", Tags: []string{"oauth"}},
		{Content: "Confused map iteration order with insertion order"},
	}); err != nil {
		t.Fatal(err)
	}
	return &stores{knowledge: ks, entries: es, proposalID: res.Proposed[0].ID, seedPath: seedPath, memoryDB: db}
}

func (s *stores) check(t *testing.T) {
	t.Helper()
	all, err := s.knowledge.Entries()
	if err != nil {
		t.Fatal(err)
	}
	byID := map[string]learn.Entry{}
	for _, e := range all {
		byID[e.ID] = e
	}
	if e := byID[s.entries[0].ID]; !e.Pinned || e.Content != "Start the app with iex -S mix phx.server" || !e.Active() {
		t.Errorf("pinned and edited entry on disk: %+v", e)
	}
	if e := byID[s.entries[1].ID]; !e.Active() || e.Pinned {
		t.Errorf("untouched entry on disk: %+v", e)
	}
	if e := byID[s.entries[2].ID]; !e.Forgotten {
		t.Errorf("forgotten entry on disk: %+v", e)
	}
	sd, _, err := seed.ReadOnly(s.seedPath)
	if err != nil {
		t.Fatal(err)
	}
	if len(sd.Learned.Patterns) != 1 || sd.Learned.Patterns[0].Content != "User prefers pnpm over npm" || sd.State.Proposals[0].Status != seed.StatusAccepted {
		t.Errorf("seed after accept: %+v / %+v", sd.Learned, sd.State.Proposals)
	}
	log, err := exec.Command("git", "-C", filepath.Dir(s.seedPath), "log", "--format=%s").Output()
	if err != nil || !strings.HasPrefix(string(log), "Confirm:") {
		t.Errorf("seed git log: %s (%v)", log, err)
	}
	recs, _ := learnseed.OpenLedger(s.knowledge.Dir()).Records()
	if latest := learnseed.Latest(recs)[s.proposalID]; latest.Status != learnseed.StatusAccepted {
		t.Errorf("ledger: %+v", latest)
	}
	mem, err := memory.OpenEmbedded(context.Background(), s.memoryDB, embedding.NewLexical(0), nil)
	if err != nil {
		t.Fatal(err)
	}
	defer mem.Close()
	rs, err := mem.ListMemories(context.Background(), "")
	if err != nil || len(rs) != 1 || rs[0].ID != "mem_e2e-coach_0" || rs[0].Content != "OAuth refresh race: take the lock before refreshing" {
		t.Errorf("memories on disk: %+v, %v", rs, err)
	}
}
