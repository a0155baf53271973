package claudecode

import (
	"bytes"
	"os"
	"path/filepath"
	"slices"
	"sort"
	"strings"
	"testing"

	"github.com/google/go-cmp/cmp"
)

func TestIsPaigeHookCommandNames(t *testing.T) {
	t.Parallel()
	for cmd, want := range map[string]bool{
		"paige hook session-start":                       true,
		"paige hook session-start --record-session":      true, // the flag install writes
		"/opt/paige-dev hook session-end":                true,
		"'/My Tools/paige.exe' hook pre-tool-use":        true,
		"/usr/bin/paige2 hook pre-tool-use":              true,
		"/usr/bin/Paige hook pre-tool-use":               true,
		"notpaige hook pre-tool-use":                     false,
		"/usr/bin/paigeant hook pre-tool-use":            false, // another program
		"paige hook session-start && rm -rf ~":           false, // more than a flag follows
		"paige hook session-start extra":                 false,
		"paige hook something-else":                      false,
		"paige seed show":                                false,
		"/opt/tools/coach hook session-start --whatever": false, // unknown name, not among bins
		"paige-hook session-start --record-session":      true,  // the small binary
		"'/My Tools/paige-hook' session-start":           true,
		"paige-hook pre-tool-use":                        false, // not a hook paige-hook runs
		"paige-hook session-start && rm -rf ~":           false,
	} {
		if got := IsPaigeHookCommand(cmd); got != want {
			t.Errorf("IsPaigeHookCommand(%q) = %v, want %v", cmd, got, want)
		}
	}
	if !IsPaigeHookCommand("/opt/tools/coach hook session-start", "/opt/tools/coach") {
		t.Error("the binary being installed is not recognised whatever its name")
	}
}

// TestInstallTwiceWhateverTheBinaryIsCalled: a binary with any name
// (coach), reached through a symlink or directly, installs once; a
// reinstall from another name replaces the entries; uninstall with the
// same binary gives back the user's file exactly.
func TestInstallTwiceWhateverTheBinaryIsCalled(t *testing.T) {
	t.Parallel()
	dir := t.TempDir()
	real := filepath.Join(dir, "coach")
	if err := os.WriteFile(real, []byte("#!/bin/sh\n"), 0o755); err != nil {
		t.Fatal(err)
	}
	link := filepath.Join(dir, "bin-link")
	if err := os.Symlink(real, link); err != nil {
		t.Fatal(err)
	}
	once, err := InstallHooks([]byte(userSettings), real)
	if err != nil {
		t.Fatal(err)
	}
	twice, err := InstallHooks(once, real)
	if err != nil || !bytes.Equal(once, twice) {
		t.Fatalf("install twice differs from once (%v):\n%s\n%s", err, once, twice)
	}
	viaLink, err := InstallHooks(once, link) // the same file through a symlink replaces, never duplicates
	if err != nil {
		t.Fatal(err)
	}
	if n := strings.Count(string(viaLink), "hook session-start"); n != 1 {
		t.Errorf("%d session-start hooks after installing through a symlink:\n%s", n, viaLink)
	}
	back, changed, err := UninstallHooks(viaLink, link)
	if err != nil || !changed {
		t.Fatalf("uninstall: changed %v, err %v", changed, err)
	}
	if diff := cmp.Diff(decode(t, []byte(userSettings)), decode(t, back)); diff != "" {
		t.Errorf("uninstall did not give back the user's settings (-want +got):\n%s", diff)
	}
}

// TestOldSessionStartEntryReplaced: entries written by older versions (the
// hook before --record-session, the separate coaching-state SessionStart
// hook) are Paige's: install replaces them with the one SessionStart
// command, uninstall removes them, and the retired one is told apart.
func TestOldSessionStartEntryReplaced(t *testing.T) {
	t.Parallel()
	old := `{"hooks":{"SessionStart":[{"hooks":[{"type":"command","command":"/usr/local/bin/paige hook session-start","timeout":10}]},` +
		`{"hooks":[{"type":"command","command":"/usr/local/bin/paige hook coaching-state","timeout":10}]}]}}`
	got, err := InstallHooks([]byte(old), bin)
	if err != nil {
		t.Fatal(err)
	}
	cmds, _ := PaigeHookCommands(got)
	want := []string{bin + " hook session-start --record-session", bin + " hook prompt-submit",
		bin + " hook session-end", bin + " hook pre-tool-use"}
	if diff := cmp.Diff(want, cmds); diff != "" {
		t.Errorf("(-want +got):\n%s", diff)
	}
	if back, changed, err := UninstallHooks([]byte(old)); err != nil || !changed || string(back) != "{}" {
		t.Errorf("uninstall of the old entries: %q changed %v err %v", back, changed, err)
	}
	for cmd, retired := range map[string]bool{bin + " hook coaching-state": true, "paige hook coaching-state": true,
		bin + " hook session-start": false, "my-script hook coaching-state": false, bin + " hook coaching-state now": false} {
		if got := IsRetiredHookCommand(cmd); got != retired {
			t.Errorf("IsRetiredHookCommand(%q) = %v, want %v", cmd, got, retired)
		}
	}
}

// TestInstallUsesPaigeHookBeside: with paige-hook beside the binary, the
// SessionStart hook runs it (the small process) and the others run paige;
// without it, every hook runs paige. Reinstalling either way replaces the
// other's entries, and uninstall removes both kinds.
func TestInstallUsesPaigeHookBeside(t *testing.T) {
	t.Parallel()
	dir := t.TempDir()
	bin := filepath.Join(dir, "paige")
	for _, name := range []string{"paige", HookBinaryName} {
		if err := os.WriteFile(filepath.Join(dir, name), []byte("#!/bin/sh\n"), 0o755); err != nil {
			t.Fatal(err)
		}
	}
	small, err := InstallHooks([]byte(userSettings), bin)
	if err != nil {
		t.Fatal(err)
	}
	cmds, _ := PaigeHookCommands(small)
	sort.Strings(cmds)
	want := []string{bin + " hook pre-tool-use", bin + " hook prompt-submit", bin + " hook session-end",
		filepath.Join(dir, HookBinaryName) + " session-start --record-session"}
	if diff := cmp.Diff(want, cmds); diff != "" {
		t.Errorf("hook commands (-want +got):\n%s", diff)
	}
	if err := os.Remove(filepath.Join(dir, HookBinaryName)); err != nil {
		t.Fatal(err)
	}
	whole, err := InstallHooks(small, bin)
	if err != nil {
		t.Fatal(err)
	}
	if cmds, _ := PaigeHookCommands(whole); len(cmds) != len(Hooks) || !slices.Contains(cmds, bin+" hook session-start --record-session") {
		t.Errorf("without paige-hook: %q", cmds)
	}
	out, _, err := UninstallHooks(small, bin)
	if err != nil || !bytes.Equal(out, []byte(userSettings)) {
		t.Errorf("uninstall after the paige-hook install (%v):\n%s", err, out)
	}
}
