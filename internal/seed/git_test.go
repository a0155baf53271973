package seed

import (
	"bytes"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"testing"

	"github.com/paige-dev/paige/internal/testenv"
)

func gitConfig(tb testing.TB, dir, key string) string {
	tb.Helper()
	out, _ := exec.Command("git", "-C", dir, "config", "--local", "--get", key).Output()
	return strings.TrimSpace(string(out))
}

func TestLoadWithGitCreatesRepoAndCommitsInit(t *testing.T) {
	path := seedFile(t, nil)
	dir := filepath.Dir(path)
	res, err := LoadWithGit(path, nil)
	if err != nil || !res.Created {
		t.Fatalf("LoadWithGit = %+v", res)
	}
	if got := string(testenv.ReadFile(t, filepath.Join(dir, ".gitignore"))); got != "*.tmp\n*.db-shm\n*.db-wal\nnode_modules/\n" {
		t.Errorf(".gitignore = %q", got)
	}
	if got := gitConfig(t, dir, "user.name"); got != gitUserName {
		t.Errorf("local user.name = %q, want %q", got, gitUserName)
	}
	if got := gitConfig(t, dir, "user.email"); got != gitUserEmail {
		t.Errorf("local user.email = %q, want %q", got, gitUserEmail)
	}
	log := gitLog(t, dir)
	want := "Init: created seed with defaults\n\n" + CommitTrailer
	if len(log) != 1 || log[0] != want {
		t.Fatalf("log = %q, want [%q]", log, want)
	}
	tracked, _ := exec.Command("git", "-C", dir, "ls-files").Output()
	if got := strings.Fields(string(tracked)); strings.Join(got, " ") != ".gitignore seed.json seed.schema.json" {
		t.Errorf("tracked files = %v", got)
	}
	// Loading again changes nothing and commits nothing.
	if again, err := LoadWithGit(path, nil); err != nil || again.Created || again.Merged {
		t.Fatalf("second LoadWithGit = %+v", again)
	}
	if n := len(gitLog(t, dir)); n != 1 {
		t.Errorf("commits = %d after an unchanged load, want 1", n)
	}
}

func TestLoadWithGitMergeAndExistingSeed(t *testing.T) {
	path := seedFile(t, []byte(`{"version":"1.0.0","identity":{"principalName":"Ada"}}`))
	res, err := LoadWithGit(path, nil)
	if err != nil || !res.Merged {
		t.Fatalf("LoadWithGit = %+v", res)
	}
	if log := gitLog(t, filepath.Dir(path)); len(log) != 1 || !strings.HasPrefix(log[0], "Merge: ") {
		t.Errorf("log = %q, want one Merge: commit", log)
	}

	existing := seedFile(t, fixture(t, "valid-seed.json"))
	if res, err := LoadWithGit(existing, nil); err != nil || res.Merged || res.Created {
		t.Fatalf("LoadWithGit(existing) = %+v", res)
	}
	if log := gitLog(t, filepath.Dir(existing)); len(log) != 1 || !strings.HasPrefix(log[0], "Init: started versioning") {
		t.Errorf("log = %q, want one Init: commit for the existing seed", log)
	}
}

func TestGitKeepsExistingIdentity(t *testing.T) {
	dir := t.TempDir()
	cfg := filepath.Join(dir, "gitconfig")
	if err := os.WriteFile(cfg, []byte("[user]\n\tname = Jane\n\temail = jane@example.com\n"), 0o600); err != nil {
		t.Fatal(err)
	}
	t.Setenv("GIT_CONFIG_GLOBAL", cfg)
	path := seedFile(t, nil)
	LoadWithGit(path, nil)
	if got := gitConfig(t, filepath.Dir(path), "user.name"); got != "" {
		t.Errorf("local user.name = %q, want none (global identity exists)", got)
	}
	out, _ := exec.Command("git", "-C", filepath.Dir(path), "log", "--format=%an").Output()
	if strings.TrimSpace(string(out)) != "Jane" {
		t.Errorf("author = %q, want Jane", out)
	}
}

func TestSaveCommitsCategorisedAndSkipsEmpty(t *testing.T) {
	path := seedFile(t, nil)
	s := mustSeed(t)(LoadWithGit(path, nil))
	s.Identity.PrincipalName = "Ada"
	if w, err := Save(path, s, CategoryUpdate, "renamed principal", nil); err != nil || w != nil {
		t.Fatalf("Save = %v, %v", w, err)
	}
	if w, err := Save(path, s, CategoryUpdate, "same again", nil); err != nil || w != nil {
		t.Fatalf("Save = %v, %v", w, err)
	}
	log := gitLog(t, filepath.Dir(path))
	if len(log) != 2 || log[0] != "Update: renamed principal\n\n"+CommitTrailer {
		t.Errorf("log = %q, want Update: on top of Init: and no empty commit", log)
	}
}

func TestRepairRestoresLastValidVersion(t *testing.T) {
	path := seedFile(t, fixture(t, "valid-seed.json"))
	dir := filepath.Dir(path)
	LoadWithGit(path, nil)
	corrupt := []byte(`{"version": "1.0.0", "identity": `)
	if err := os.WriteFile(path, corrupt, 0o600); err != nil {
		t.Fatal(err)
	}
	// Loading no longer repairs: the broken file is reported and left as it is.
	if res, err := LoadWithGit(path, nil); err == nil || loadErr(err).Code != CodeParse {
		t.Fatalf("LoadWithGit after corruption = %+v, want parse_error", res)
	}
	if got := testenv.ReadFile(t, path); !bytes.Equal(got, corrupt) {
		t.Errorf("LoadWithGit changed the broken file to %q", got)
	}
	if _, err := os.Stat(path + ".corrupted"); err == nil {
		t.Error("LoadWithGit copied the file aside")
	}
	rep, err := Repair(path, nil)
	if err != nil || rep.Backup != path+".corrupted" || rep.RestoredFrom == "" {
		t.Fatalf("Repair = %+v, %v", rep, err)
	}
	if !strings.Contains(rep.Summary(), "restored the last valid version") {
		t.Errorf("summary = %q, want a restore notice", rep.Summary())
	}
	if s := mustLoad(t, path); s.Identity.AIName != "Ivy" {
		t.Errorf("aiName after repair = %q", s.Identity.AIName)
	}
	if got := testenv.ReadFile(t, path+".corrupted"); !bytes.Equal(got, corrupt) {
		t.Errorf("corrupt copy = %q, want the broken content", got)
	}
	if log := gitLog(t, dir); !strings.HasPrefix(log[0], "Repair: restored seed from ") {
		t.Errorf("latest commit = %q, want Repair:", log[0])
	}
	// A second corruption keeps the first copy and adds another.
	if err := os.WriteFile(path, []byte("garbage"), 0o600); err != nil {
		t.Fatal(err)
	}
	rep, err = Repair(path, nil)
	if err != nil || rep.Backup != path+".corrupted.1" || rep.ResetToDefaults {
		t.Fatalf("Repair = %+v, %v", rep, err)
	}
}

func TestRepairResetsToDefaultsWithoutHistory(t *testing.T) {
	for _, opts := range []*Options{nil, noGit} {
		path := seedFile(t, []byte("{broken"))
		rep, err := Repair(path, opts)
		if err != nil || !rep.ResetToDefaults {
			t.Fatalf("Repair = %+v, %v", rep, err)
		}
		if s := mustLoad(t, path); s.Identity.PrincipalName != "User" {
			t.Errorf("seed after reset = %+v", s.Identity)
		}
		if opts == nil {
			if log := gitLog(t, filepath.Dir(path)); !strings.HasPrefix(log[0], "Repair: reset seed to defaults") {
				t.Errorf("log = %q", log)
			}
		}
	}
}

func TestLoadWithGitDoesNotRepairNewerMajor(t *testing.T) {
	newer := []byte(`{"version": "2.0.0"}`)
	path := seedFile(t, newer)
	res, err := LoadWithGit(path, nil)
	if err == nil || loadErr(err).Code != CodeValidation {
		t.Fatalf("LoadWithGit = %+v, want validation_error", res)
	}
	if !bytes.Equal(testenv.ReadFile(t, path), newer) {
		t.Error("newer seed was modified")
	}
	if _, err := os.Stat(path + ".corrupted"); err == nil {
		t.Error("newer seed copied aside as corrupt")
	}
}

func TestMissingGitDegradesToPlainFiles(t *testing.T) {
	emptyPath := t.TempDir() // a PATH with no git in it
	opts := &Options{GitPath: emptyPath}
	path := seedFile(t, nil)
	res, err := LoadWithGit(path, opts)
	if err != nil || !res.Created {
		t.Fatalf("LoadWithGit = %+v", res)
	}
	if len(res.Warnings) == 0 || res.Warnings[0] != WarnNoGit {
		t.Errorf("warnings = %q, want %q", res.Warnings, WarnNoGit)
	}
	if _, err := os.Stat(filepath.Join(filepath.Dir(path), ".git")); err == nil {
		t.Error("repository created without git")
	}
	n, err := AddProposals(path, []Proposal{{Type: TypeInsight, Content: "Works offline", Source: "test"}}, opts)
	if err != nil || n != 1 {
		t.Fatalf("AddProposals without git = %d, %v", n, err)
	}
}

func TestGitFailureNeverFailsWrite(t *testing.T) {
	path := seedFile(t, nil)
	LoadWithGit(path, nil)
	// Break the repository: writes must still succeed, with a warning.
	if err := os.WriteFile(filepath.Join(filepath.Dir(path), ".git", "HEAD"), []byte("garbage"), 0o644); err != nil {
		t.Fatal(err)
	}
	s := Defaults()
	s.Identity.PrincipalName = "Ada"
	warnings, err := Save(path, s, CategoryUpdate, "broken repo", nil)
	if err != nil {
		t.Fatalf("Save = %v, want success despite git", err)
	}
	if len(warnings) == 0 || !strings.Contains(warnings[0], "git commit failed") {
		t.Errorf("warnings = %q, want a git warning", warnings)
	}
	if mustLoad(t, path).Identity.PrincipalName != "Ada" {
		t.Error("write lost")
	}
}
