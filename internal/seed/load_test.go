package seed

import (
	"bytes"
	"errors"
	"io/fs"
	"os"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"github.com/google/go-cmp/cmp"

	"github.com/paige-dev/paige/internal/testenv"
)

func TestLoadMissingCreatesDefaultsAndSchema(t *testing.T) {
	path := seedFile(t, nil)
	res, err := Load(path)
	if err != nil || !res.Created || res.Merged {
		t.Fatalf("Load = %+v, want OK and Created", res)
	}
	if res.Seed.Identity.PrincipalName != "User" {
		t.Errorf("principalName = %q, want User", res.Seed.Identity.PrincipalName)
	}
	if v := ValidateJSON(testenv.ReadFile(t, path)); !v.Valid {
		t.Errorf("written seed invalid: %+v", v.Errors)
	}
	schema := testenv.ReadFile(t, filepath.Join(filepath.Dir(path), SchemaFileName))
	if !bytes.Contains(schema, []byte("draft-07")) {
		t.Errorf("schema file is not the draft-07 schema")
	}
	again, err := Load(path)
	if err != nil || again.Created || again.Merged {
		t.Errorf("second Load = %+v, want plain OK", again)
	}
}

func TestLoadErrors(t *testing.T) {
	tests := []struct {
		name    string
		data    string
		code    string
		message string
	}{
		{"empty", "", CodeParse, "Seed file is empty"},
		{"whitespace", " \n\t", CodeParse, "Seed file is empty"},
		{"invalid json", "{not json", CodeParse, "Invalid JSON in seed file: "},
		{"array", "[1,2]", CodeValidation, "Seed validation failed: Expected object, received array"},
		{"null", "null", CodeValidation, "Seed validation failed: Seed data must be a non-null object"},
		{"wrong types", string(fixture(t, "invalid-wrong-types.json")), CodeValidation, "Seed validation failed: $.version: Version must be a string"},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			path := seedFile(t, []byte(tt.data))
			_, err := Load(path)
			if err == nil {
				t.Fatalf("Load OK, want %s", tt.code)
			}
			if loadErr(err).Code != tt.code || !strings.HasPrefix(loadErr(err).Message, tt.message) {
				t.Errorf("error = %s %q, want %s %q…", loadErr(err).Code, loadErr(err).Message, tt.code, tt.message)
			}
			if got := string(testenv.ReadFile(t, path)); got != tt.data {
				t.Errorf("failed load changed the file")
			}
		})
	}
}

func TestLoadValidationDetails(t *testing.T) {
	path := seedFile(t, []byte(`{"version":"1.0.0","identity":{"principalName":""}}`))
	res, err := Load(path)
	if err == nil || loadErr(err).Code != CodeValidation || len(loadErr(err).Details) == 0 {
		t.Fatalf("Load = %+v, want validation_error with details", res)
	}
	if got := loadErr(err).Details[0].Path; got != "$.identity.principalName" {
		t.Errorf("first detail path = %q, want $.identity.principalName", got)
	}
}

func TestLoadReadErrors(t *testing.T) {
	dir := t.TempDir()
	res, err := Load(dir) // a directory is not a readable seed
	if err == nil || loadErr(err).Code != CodeRead {
		t.Errorf("Load(dir) = %+v, want read_error", res)
	}
	if os.Geteuid() == 0 {
		return // root reads anything; the permission case cannot be staged
	}
	path := seedFile(t, fixture(t, "valid-seed.json"))
	if err := os.Chmod(path, 0); err != nil {
		t.Fatal(err)
	}
	if res, err := Load(path); err == nil || loadErr(err).Code != CodePermission {
		t.Errorf("Load(unreadable) = %+v, want permission_error", res)
	}
}

func TestLoadMergesAndWritesBack(t *testing.T) {
	path := seedFile(t, []byte(`{"version":"1.0.0","identity":{"principalName":"Ada","aiName":"Ivy"},"future":{"keep":"<b>&"}}`))
	res, err := Load(path)
	if err != nil || !res.Merged || res.Created {
		t.Fatalf("Load = %+v, want OK and Merged", res)
	}
	if res.Seed.Identity.Catchphrase != "PAI here, ready to go." || res.Seed.Identity.AIName != "Ivy" {
		t.Errorf("identity = %+v, want file values over defaults", res.Seed.Identity)
	}
	written := string(testenv.ReadFile(t, path))
	for _, want := range []string{`"principalName": "Ada"`, `"keep": "<b>&"`, `"selfKnowledge": []`} {
		if !strings.Contains(written, want) {
			t.Errorf("written seed lacks %s:\n%s", want, written)
		}
	}
	if len(res.Warnings) != 1 || !strings.Contains(res.Warnings[0], `"future"`) {
		t.Errorf("warnings = %v, want the unknown key", res.Warnings)
	}
	if again, err := Load(path); err != nil || again.Merged {
		t.Error("second Load merged again")
	}
}

// TestLoadMissingVersionIsMerged: the merge with defaults runs before
// validation (foundations F-002), so a file without a version gets 1.0.0.
func TestLoadMissingVersionIsMerged(t *testing.T) {
	path := seedFile(t, fixture(t, "invalid-missing-version.json"))
	res, err := Load(path)
	if err != nil || !res.Merged || res.Seed.Version != "1.0.0" || res.Seed.Identity.AIName != "Ivy" {
		t.Fatalf("Load = %+v, want merged with version 1.0.0", res)
	}
}

func TestLoadUnchangedKeepsMtime(t *testing.T) {
	path := seedFile(t, fixture(t, "valid-seed.json"))
	old := time.Date(2020, 1, 2, 3, 4, 5, 0, time.UTC)
	if err := os.Chtimes(path, old, old); err != nil {
		t.Fatal(err)
	}
	if res, err := Load(path); err != nil || res.Merged || res.Created {
		t.Fatalf("Load = %+v, want plain OK", res)
	}
	st, err := os.Stat(path)
	if err != nil {
		t.Fatal(err)
	}
	if !st.ModTime().Equal(old) {
		t.Errorf("mtime = %v, want %v (file rewritten)", st.ModTime(), old)
	}
	if !bytes.Equal(testenv.ReadFile(t, path), fixture(t, "valid-seed.json")) {
		t.Error("content changed")
	}
}

func TestWriteRefusesInvalidAndIsAtomic(t *testing.T) {
	path := seedFile(t, fixture(t, "valid-seed.json"))
	bad := Defaults()
	bad.Identity.PrincipalName = ""
	if err := Write(path, bad); err == nil || !strings.Contains(err.Error(), "$.identity.principalName") {
		t.Fatalf("Write(invalid) = %v, want refusal naming the field", err)
	}
	if !bytes.Equal(testenv.ReadFile(t, path), fixture(t, "valid-seed.json")) {
		t.Error("refused write changed the file")
	}
	good := Defaults()
	good.Identity.PrincipalName = "Ada"
	nested := filepath.Join(filepath.Dir(path), "a", "b", "seed.json")
	for _, p := range []string{path, nested} {
		if err := Write(p, good); err != nil {
			t.Fatal(err)
		}
		if got := mustLoad(t, p).Identity.PrincipalName; got != "Ada" {
			t.Errorf("principalName = %q, want Ada", got)
		}
	}
	entries, _ := os.ReadDir(filepath.Dir(path))
	for _, e := range entries {
		if strings.HasSuffix(e.Name(), ".tmp") {
			t.Errorf("temp file %s left behind", e.Name())
		}
	}
}

func TestPeekNeverWrites(t *testing.T) {
	path := seedFile(t, nil)
	if res, err := Peek(path); err != nil || !res.Created {
		t.Fatalf("Peek = %+v, want defaults", res)
	}
	if _, err := os.Stat(path); !os.IsNotExist(err) {
		t.Errorf("Peek created the seed (stat err %v)", err)
	}
}

var wantInvalidValues = []Problem{
	{"$.identity.preferences.responseStyle", "Invalid enum value. Expected 'concise' | 'detailed' | 'adaptive', received 'verbose'", CodeInvalidEnum, FixDefault},
	{"$.learned.patterns.1.content", "String must contain at least 1 character(s)", CodeTooSmall, FixDropLearning},
	{"$.learned.patterns.2.tags.1", "Expected string, received number", CodeInvalidType, FixDropItem},
	{"$.learned.insights.0.extractedAt", "Invalid datetime", CodeInvalidString, FixNormalized},
	{"$.state.lastSessionAt", "Invalid datetime", CodeInvalidString, FixDropField},
	{"$.state.proposals.1.type", "Invalid enum value. Expected 'pattern' | 'insight' | 'self_knowledge', received 'habit'", CodeInvalidEnum, FixDropProposal},
	{"$.state.proposals.2.confidence", "Expected number, received string", CodeInvalidType, FixDropField},
	{"$.state.activeProjects.1", "Expected string, received number", CodeInvalidType, FixDropItem},
}

func TestReadOnlyKeepsEveryValidValue(t *testing.T) {
	path := seedFile(t, fixture(t, "invalid-values-seed.json"))
	before := testenv.Snapshot(t, filepath.Dir(path))
	s, problems, err := ReadOnly(path)
	if err != nil {
		t.Fatal(err)
	}
	if diff := cmp.Diff(wantInvalidValues, problems); diff != "" {
		t.Errorf("problems (-want +got):\n%s", diff)
	}
	testenv.AssertUnchanged(t, filepath.Dir(path), before)

	if s.Identity.PrincipalName != "Jens-Christian" || s.Identity.AIName != "Ivy" || s.Identity.Preferences.ResponseStyle != DefaultStyle || s.Identity.Preferences.Timezone != "Europe/Zurich" {
		t.Errorf("identity = %+v", s.Identity)
	}
	ids := func(ls []Learning) (out []string) {
		for _, l := range ls {
			out = append(out, l.ID+":"+strings.Join(l.Tags, ","))
		}
		return out
	}
	// pat_002 (empty content) is dropped; pat_003 loses only its bad tag; the
	// drop of pat_002 must not shift the tag fix onto pat_004.
	if diff := cmp.Diff([]string{"pat_001:language-preference,tooling", "pat_003:methodology", "pat_004:a,b"}, ids(s.Learned.Patterns)); diff != "" {
		t.Errorf("patterns (-want +got):\n%s", diff)
	}
	if got := s.Learned.Insights[0].ExtractedAt; got != "2026-01-20T14:00:00.000Z" {
		t.Errorf("insight extractedAt = %q, want the offset time in UTC", got)
	}
	var props []string
	for _, p := range s.State.Proposals {
		props = append(props, p.ID)
	}
	if diff := cmp.Diff([]string{"prop_001", "prop_003"}, props); diff != "" {
		t.Errorf("proposals (-want +got):\n%s", diff)
	}
	if s.State.LastSessionAt != "" || s.State.LastSessionID != "sess_abc123" || s.State.CheckpointRef == "" {
		t.Errorf("state = %+v", s.State)
	}
	if diff := cmp.Diff([]string{"pai-seed", "ragent"}, s.State.ActiveProjects); diff != "" {
		t.Errorf("activeProjects (-want +got):\n%s", diff)
	}
	if v := ValidateSeed(s); !v.Valid {
		t.Errorf("salvaged seed does not validate: %+v", v.Errors)
	}
}

func TestReadOnlyValidMissingAndBroken(t *testing.T) {
	t.Run("valid", func(t *testing.T) {
		path := seedFile(t, fixture(t, "valid-seed.json"))
		s, problems, err := ReadOnly(path)
		if err != nil || len(problems) != 0 || s.Identity.AIName != "Ivy" {
			t.Fatalf("ReadOnly = %+v, %v, %v", s, problems, err)
		}
	})
	t.Run("missing keys are no problem and are not written", func(t *testing.T) {
		data := []byte(`{"identity":{"principalName":"Ann"}}`)
		path := seedFile(t, data)
		s, problems, err := ReadOnly(path)
		if err != nil || len(problems) != 0 || s.Identity.PrincipalName != "Ann" || s.Identity.AIName != DefaultAIName {
			t.Fatalf("ReadOnly = %+v, %v, %v", s, problems, err)
		}
		if !bytes.Equal(testenv.ReadFile(t, path), data) {
			t.Error("ReadOnly rewrote the merged seed")
		}
	})
	t.Run("missing", func(t *testing.T) {
		path := seedFile(t, nil)
		_, _, err := ReadOnly(path)
		if !errors.Is(err, ErrNoSeed) || !errors.Is(err, fs.ErrNotExist) {
			t.Fatalf("err = %v, want ErrNoSeed", err)
		}
		if _, err := os.Stat(filepath.Dir(path)); err == nil {
			t.Error("ReadOnly created the seed directory")
		}
	})
	for _, tt := range []struct {
		name, data, code string
	}{
		{"unparseable", `{"version": "1.0.0", "identity": `, CodeParse},
		{"empty", "  \n", CodeParse},
		{"not an object", `[1, 2]`, CodeValidation},
		{"newer major", `{"version": "2.0.0", "identity": 3}`, CodeValidation},
	} {
		t.Run(tt.name, func(t *testing.T) {
			path := seedFile(t, []byte(tt.data))
			before := testenv.Snapshot(t, filepath.Dir(path))
			s, _, err := ReadOnly(path)
			var le *LoadError
			if s != nil || !errors.As(err, &le) || le.Code != tt.code {
				t.Fatalf("ReadOnly = %v, %v; want a %s LoadError", s, err, tt.code)
			}
			testenv.AssertUnchanged(t, filepath.Dir(path), before)
		})
	}
}

func TestSalvageFixesEveryKindOfProblem(t *testing.T) {
	// invalid-wrong-types.json breaks the version and most sections at once.
	path := seedFile(t, fixture(t, "invalid-wrong-types.json"))
	s, problems, err := ReadOnly(path)
	if err != nil {
		t.Fatal(err)
	}
	if len(problems) < 8 || problems[0].Path != "$.version" {
		t.Errorf("problems = %+v", problems)
	}
	if s.Version != DefaultVersion || s.Identity.PrincipalName != DefaultPrincipalName || s.Identity.VoiceID != "default" {
		t.Errorf("seed = %+v", s)
	}
	if v := ValidateSeed(s); !v.Valid {
		t.Errorf("salvaged seed does not validate: %+v", v.Errors)
	}
}

func TestInvalidValuesWarning(t *testing.T) {
	if got := InvalidValuesWarning("seed.json", 3); got != "seed.json has 3 invalid values; run `paige seed check`" {
		t.Errorf("plural = %q", got)
	}
	if got := InvalidValuesWarning("seed.json", 1); got != "seed.json has 1 invalid value; run `paige seed check`" {
		t.Errorf("singular = %q", got)
	}
}

func TestSessionContextOfInvalidSeedPresentsWhatItCan(t *testing.T) {
	path := seedFile(t, fixture(t, "invalid-values-seed.json"))
	before := testenv.Snapshot(t, filepath.Dir(path))
	sc, err := GenerateSessionContext(path, ContextOptions{})
	if err != nil || sc.NeedsSetup || len(sc.Problems) != len(wantInvalidValues) || sc.ProposalCount != 1 {
		t.Fatalf("GenerateSessionContext = %+v", sc)
	}
	first, rest, _ := strings.Cut(sc.Context, "\n\n")
	if first != "seed.json has 8 invalid values; run `paige seed check`" {
		t.Errorf("first line = %q", first)
	}
	for _, want := range []string{"Identity: Ivy (working with Jens-Christian)", "Keeps commits small", "Prefers Chart.js over D3"} {
		if !strings.Contains(rest, want) {
			t.Errorf("context lacks %q:\n%s", want, sc.Context)
		}
	}
	if strings.Contains(sc.Context, SetupMessage) {
		t.Errorf("an invalid seed is told to run setup:\n%s", sc.Context)
	}
	testenv.AssertUnchanged(t, filepath.Dir(path), before)

	one := seedFile(t, []byte(`{"identity":{"principalName":"Ann","aiName":""}}`))
	if sc, err := GenerateSessionContext(one, ContextOptions{}); err != nil || !strings.HasPrefix(sc.Context, "seed.json has 1 invalid value; run `paige seed check`\n\nSeed: v1.0.0") {
		t.Errorf("context = %q", sc.Context)
	}
}

func TestSessionContextOfInvalidSeedNeedingSetup(t *testing.T) {
	path := seedFile(t, []byte(`{"state":{"activeProjects":[1]}}`))
	sc, err := GenerateSessionContext(path, ContextOptions{})
	if err != nil || !sc.NeedsSetup || sc.Context != "seed.json has 1 invalid value; run `paige seed check`\n\n"+SetupMessage {
		t.Errorf("GenerateSessionContext = %+v", sc)
	}
	// An invalid principal name is a problem, not a reason to ask for setup.
	path = seedFile(t, fixture(t, "valid-seed.json"))
	data := bytes.Replace(fixture(t, "valid-seed.json"), []byte(`"Jens-Christian"`), []byte(`42`), 1)
	if err := os.WriteFile(path, data, 0o600); err != nil {
		t.Fatal(err)
	}
	if sc, err := GenerateSessionContext(path, ContextOptions{}); err != nil || sc.NeedsSetup || !strings.Contains(sc.Context, "Identity: Ivy") {
		t.Errorf("GenerateSessionContext = %+v", sc)
	}
}

func TestSessionContextOfInvalidSeedStaysBounded(t *testing.T) {
	big := strings.Repeat("x", 3000)
	path := seedFile(t, []byte(`{"identity":{"principalName":"`+big+`","catchphrase":"`+big+`","aiName":"`+big+`","voiceId":7}}`))
	sc, err := GenerateSessionContext(path, ContextOptions{MaxChars: 500})
	if n := len([]rune(sc.Context)); err != nil || n > 500 || !strings.HasPrefix(sc.Context, "seed.json has 1 invalid value") {
		t.Errorf("context of %d chars:\n%s", n, sc.Context)
	}
}

func TestSessionContextOfUnparseableSeed(t *testing.T) {
	path := seedFile(t, []byte(`{"version": "1.0.0", "identity": `))
	before := testenv.Snapshot(t, filepath.Dir(path))
	line := SessionStartHook(path, ContextOptions{})
	if !strings.HasPrefix(line, ErrorPrefix+"Invalid JSON in seed file: ") || !strings.HasSuffix(line, "seed.json was left untouched; run `paige seed check`") || strings.Contains(line, "\n") {
		t.Errorf("hook text = %q", line)
	}
	testenv.AssertUnchanged(t, filepath.Dir(path), before)
}

func FuzzReadOnly(f *testing.F) {
	for _, name := range []string{"valid-seed.json", "invalid-values-seed.json", "invalid-wrong-types.json", "valid-seed-minimal.json"} {
		f.Add(fixture(f, name))
	}
	f.Add([]byte(`{"learned":{"patterns":[{"tags":[1,{}],"content":3}]},"state":{"extractionStats":{"byType":7}}}`))
	f.Fuzz(func(t *testing.T, data []byte) {
		s, problems, err := salvageBytes(data, time.Unix(0, 0))
		if err != nil {
			return
		}
		b, err := Encode(s)
		if err != nil {
			t.Fatalf("encode salvaged seed: %v", err)
		}
		if v := ValidateJSON(b); !v.Valid {
			t.Fatalf("salvaged seed (%d problems) does not validate: %+v\n%s", len(problems), v.Errors, b)
		}
	})
}
