//go:build unix

package workspace

import (
	"bytes"
	"fmt"
	"math/rand/v2"
	"os"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"github.com/paige-dev/paige/internal/testenv"
)

func TestIsTempName(t *testing.T) {
	t.Parallel()
	for name, want := range map[string]bool{
		".a.ts.paige-123": true, ".x.paige-0": true, ".a.paige-b.paige-42": true,
		"a.ts.paige-123": false, ".a.ts.paige-": false, ".a.ts.paige-12x": false, "..paige-1": false,
		".paige-1": false, ".a.ts.paige": false, ".a.ts": false, ".a.ts.paige-١٢": false,
	} {
		if got := isTempName(name); got != want {
			t.Errorf("isTempName(%q) = %v, want %v", name, got, want)
		}
	}
}

// envSaveRoot names the project the helper process of
// TestKilledSavesLeaveNothing saves into.
const envSaveRoot = "PAIGE_WORKSPACE_TEST_SAVE_ROOT"

// saveContents are the two versions of the saved file, large enough that
// a save takes a while; a torn file is neither.
var saveContents = [2]string{strings.Repeat("old version\n", 40_000), strings.Repeat("NEW VERSION\n", 40_000)}

// TestSaveLoopHelper is not a test of its own: run by
// TestKilledSavesLeaveNothing as a separate process, it saves the file in
// a loop, alternating its two versions, until it is killed.
func TestSaveLoopHelper(t *testing.T) {
	root := os.Getenv(envSaveRoot)
	if root == "" {
		return // only meaningful as the helper process
	}
	w, err := New(root, nil)
	if err != nil {
		t.Fatal(err)
	}
	fmt.Println("started")
	for i := 1; ; i++ {
		if _, err := w.WriteFile("src/main.go", saveContents[i%2]); err != nil {
			t.Fatal(err)
		}
	}
}

// TestKilledSavesLeaveNothing kills a process saving a file in a loop at
// random moments (SIGKILL): the file is always one version or the other,
// never torn, and the next start removes the temporary files the killed
// saves left beside it, and nothing else.
func TestKilledSavesLeaveNothing(t *testing.T) {
	if testing.Short() {
		t.Skip("starts and kills processes")
	}
	root := t.TempDir()
	must(t, os.MkdirAll(filepath.Join(root, "src"), 0o755))
	must(t, os.WriteFile(filepath.Join(root, "src", "main.go"), []byte(saveContents[0]), 0o644))
	lookalike := filepath.Join(root, "src", ".main.go.paige-notes") // not a save's: kept
	must(t, os.WriteFile(lookalike, []byte("mine"), 0o644))
	r := rand.New(rand.NewPCG(uint64(time.Now().UnixNano()), 29))
	left := map[string]bool{}
	for run := 0; run < 8 || len(left) == 0 && run < 40; run++ {
		killAfter := time.Duration(r.IntN(40_000)) * time.Microsecond
		testenv.KillHelper(t, "TestSaveLoopHelper", []string{envSaveRoot + "=" + root},
			func(out string) bool { return strings.Contains(out, "started") }, killAfter)
		got := testenv.ReadFile(t, filepath.Join(root, "src", "main.go"))
		if !bytes.Equal(got, []byte(saveContents[0])) && !bytes.Equal(got, []byte(saveContents[1])) {
			t.Fatalf("run %d (killed after %v): the file is torn (%d bytes)", run, killAfter, len(got))
		}
		temps, _ := filepath.Glob(filepath.Join(root, "src", ".main.go.paige-[0-9]*"))
		for _, p := range temps {
			left[p] = true
		}
	}
	if len(left) == 0 {
		t.Fatal("no kill interrupted a save in 40 runs: the test proves nothing")
	}
	w, err := New(root, nil)
	must(t, err)
	wt, err := w.Watch(nil)
	must(t, err)
	defer wt.Close()
	<-wt.Ready()
	if got := listTree(t, root); strings.Join(got, " ") != "src src/.main.go.paige-notes src/main.go" {
		t.Errorf("after a start (%d temporary files were left): %q", len(left), got)
	}
	if _, err := os.Stat(lookalike); err != nil {
		t.Error(err)
	}
}
