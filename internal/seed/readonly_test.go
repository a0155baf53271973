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
