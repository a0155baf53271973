package seed

import (
	"errors"
	"path/filepath"
	"strings"
	"testing"

	"github.com/google/go-cmp/cmp"
)

func TestIsFirstRun(t *testing.T) {
	tests := []struct {
		name string
		data []byte
		want bool
	}{
		{"missing", nil, true},
		{"defaults", fixture(t, "valid-seed-minimal.json"), true},
		{"corrupt", []byte("{"), true},
		{"configured", fixture(t, "valid-seed.json"), false},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			path := seedFile(t, tt.data)
			if got := IsFirstRun(path); got != tt.want {
				t.Errorf("IsFirstRun = %v, want %v", got, tt.want)
			}
		})
	}
}

func TestBuildFromAnswers(t *testing.T) {
	got, err := BuildFromAnswers(Answers{PrincipalName: " Ada ", AIName: "Ivy"}, nil, "Europe/Zurich")
	if err != nil {
		t.Fatal(err)
	}
	want := Identity{PrincipalName: "Ada", AIName: "Ivy", Catchphrase: "Ivy here, ready to go.", VoiceID: "default",
		Preferences: Preferences{ResponseStyle: "adaptive", Timezone: "Europe/Zurich", Locale: "en-US"}}
	if diff := cmp.Diff(want, got.Identity); diff != "" {
		t.Errorf("(-want +got):\n%s", diff)
	}
	got, err = BuildFromAnswers(Answers{PrincipalName: "Ada", Timezone: "Asia/Tokyo", ResponseStyle: "concise", Catchphrase: "Hi."}, nil, "")
	if err != nil {
		t.Fatal(err)
	}
	if p := got.Identity; p.AIName != "PAI" || p.Catchphrase != "Hi." || p.Preferences.Timezone != "Asia/Tokyo" || p.Preferences.ResponseStyle != "concise" {
		t.Errorf("identity = %+v", p)
	}
	if got, _ := BuildFromAnswers(Answers{PrincipalName: "Ada"}, nil, ""); got.Identity.Preferences.Timezone != "UTC" {
		t.Errorf("timezone without detection = %q, want UTC", got.Identity.Preferences.Timezone)
	}
	if _, err := BuildFromAnswers(Answers{PrincipalName: ""}, nil, ""); err == nil {
		t.Error("empty name accepted")
	}
	if _, err := BuildFromAnswers(Answers{PrincipalName: "Ada", ResponseStyle: "verbose"}, nil, ""); err == nil {
		t.Error("unknown style accepted")
	}
}

func TestRunSetupIsIdempotent(t *testing.T) {
	path := seedFile(t, nil)
	res, err := RunSetup(path, Answers{PrincipalName: "Ada", AIName: "Ivy"}, "UTC", nil)
	if err != nil || !res.Configured || res.Config.Identity.PrincipalName != "Ada" {
		t.Fatalf("RunSetup = %+v, %v", res, err)
	}
	if IsFirstRun(path) {
		t.Error("still first run after setup")
	}
	log := gitLog(t, filepath.Dir(path))
	if log[0] != "Init: first-run setup completed\n\n"+CommitTrailer {
		t.Errorf("latest commit = %q", log[0])
	}
	again, err := RunSetup(path, Answers{PrincipalName: "Eve"}, "UTC", nil)
	if err != nil || again.Configured || again.Config.Identity.PrincipalName != "Ada" {
		t.Errorf("second RunSetup = %+v, %v; want no change", again, err)
	}
	if n := len(gitLog(t, filepath.Dir(path))); n != len(log) {
		t.Errorf("commits = %d, want %d (no commit on repeat)", n, len(log))
	}
}

func TestRunSetupKeepsExistingLearnings(t *testing.T) {
	data := strings.Replace(string(fixture(t, "valid-seed.json")), `"principalName": "Jens-Christian"`, `"principalName": "User"`, 1)
	path := seedFile(t, []byte(data))
	res, err := RunSetup(path, Answers{PrincipalName: "Jens"}, "", noGit)
	if err != nil || !res.Configured {
		t.Fatalf("RunSetup = %+v, %v", res, err)
	}
	if s := mustLoad(t, path); len(s.Learned.Patterns) != 3 || len(s.State.Proposals) != 3 {
		t.Errorf("setup lost data: %d patterns, %d proposals", len(s.Learned.Patterns), len(s.State.Proposals))
	}
}

func TestPromptAnswers(t *testing.T) {
	tests := []struct {
		name  string
		input string
		def   Answers
		want  Answers
		err   error
	}{
		{"all defaults after a name", "\nAda\n\n\n\n\n\n", Answers{Timezone: "Europe/Zurich"},
			Answers{PrincipalName: "Ada", AIName: "PAI", Catchphrase: "PAI here, ready to go.", ResponseStyle: "adaptive", Timezone: "Europe/Zurich", Locale: "en-US"}, nil},
		{"everything given, bad style retried", "Ada\nIvy\n\nverbose\nconcise\nAsia/Tokyo\nde-CH\n", Answers{},
			Answers{PrincipalName: "Ada", AIName: "Ivy", Catchphrase: "Ivy here, ready to go.", ResponseStyle: "concise", Timezone: "Asia/Tokyo", Locale: "de-CH"}, nil},
		{"input ends early", "Ada\nIvy", Answers{},
			Answers{PrincipalName: "Ada", AIName: "Ivy", Catchphrase: "Ivy here, ready to go.", ResponseStyle: "adaptive", Timezone: "UTC", Locale: "en-US"}, nil},
		{"no name at all", "\n\n", Answers{}, Answers{}, ErrNoAnswer},
		{"name from flag default", "\n", Answers{PrincipalName: "Flag"},
			Answers{PrincipalName: "Flag", AIName: "PAI", Catchphrase: "PAI here, ready to go.", ResponseStyle: "adaptive", Timezone: "UTC", Locale: "en-US"}, nil},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			var out strings.Builder
			got, err := PromptAnswers(strings.NewReader(tt.input), &out, tt.def)
			if !errors.Is(err, tt.err) {
				t.Fatalf("err = %v, want %v", err, tt.err)
			}
			if tt.err != nil {
				return
			}
			if diff := cmp.Diff(tt.want, got); diff != "" {
				t.Errorf("(-want +got):\n%s", diff)
			}
			if !strings.Contains(out.String(), "Your name") {
				t.Errorf("prompt missing: %q", out.String())
			}
		})
	}
}

func TestDetectTimezone(t *testing.T) {
	if got := DetectTimezone("America/New_York"); got != "America/New_York" {
		t.Errorf("DetectTimezone(TZ) = %q", got)
	}
	if got := DetectTimezone(":Europe/Paris"); got != "Europe/Paris" {
		t.Errorf("DetectTimezone(:TZ) = %q", got)
	}
}
