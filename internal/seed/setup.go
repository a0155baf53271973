package seed

import (
	"bufio"
	"errors"
	"fmt"
	"io"
	"os"
	"path/filepath"
	"strings"
)

// Answers are the first-run setup answers; only PrincipalName is required.
type Answers struct {
	PrincipalName string `json:"principalName"`
	AIName        string `json:"aiName,omitempty"`
	Catchphrase   string `json:"catchphrase,omitempty"`
	VoiceID       string `json:"voiceId,omitempty"`
	ResponseStyle string `json:"responseStyle,omitempty"`
	Timezone      string `json:"timezone,omitempty"`
	Locale        string `json:"locale,omitempty"`
}

// IsFirstRun reports whether the seed at path still needs setup: it cannot be
// loaded, or its principalName is still the default "User". It never writes.
func IsFirstRun(path string) bool {
	res, err := Peek(path)
	return err != nil || res.Seed.Identity.PrincipalName == DefaultPrincipalName
}

// BuildFromAnswers returns base (or the defaults when base is nil) with its
// identity taken from a: aiName defaults to "PAI", the catchphrase to
// "{aiName} here, ready to go.", the timezone to detectedTZ (or UTC). The
// result is validated; base is not modified.
func BuildFromAnswers(a Answers, base *Seed, detectedTZ string) (*Seed, error) {
	s := Defaults()
	if base != nil {
		c := *base
		s = &c
	}
	trim := func(v, def string) string {
		if v = strings.TrimSpace(v); v == "" {
			return def
		}
		return v
	}
	ai := trim(a.AIName, DefaultAIName)
	s.Identity = Identity{
		PrincipalName: strings.TrimSpace(a.PrincipalName),
		AIName:        ai,
		Catchphrase:   trim(a.Catchphrase, DefaultCatchphrase(ai)),
		VoiceID:       trim(a.VoiceID, DefaultVoiceID),
		Preferences: Preferences{
			ResponseStyle: trim(a.ResponseStyle, DefaultStyle),
			Timezone:      trim(a.Timezone, trim(detectedTZ, DefaultTimezone)),
			Locale:        trim(a.Locale, DefaultLocale),
		},
	}
	if v := ValidateSeed(s); !v.Valid {
		return nil, fmt.Errorf("seed: invalid setup answers: %s", validationMessage(v.Errors))
	}
	return s, nil
}

// SetupResult says what [RunSetup] did.
type SetupResult struct {
	// Configured reports that this call wrote the identity; false means the
	// seed was already set up and nothing changed.
	Configured bool
	Config     *Seed
	Warnings   []string
}

// RunSetup writes the identity from a and commits "Init: first-run setup
// completed", but only on first run (see [IsFirstRun]); afterwards it changes
// nothing and returns the existing seed. Learnings and state of an existing
// default seed are kept. A seed that exists but does not parse or validate is
// refused (and left untouched) like in [Update].
func RunSetup(path string, a Answers, detectedTZ string, opts *Options) (SetupResult, error) {
	unlock, err := lockSeed(path)
	if err != nil {
		return SetupResult{}, err
	}
	defer unlock()
	if !IsFirstRun(path) {
		res, err := Peek(path)
		return SetupResult{Config: res.Seed}, err
	}
	warnings := prepareWrite(path, opts)
	if err := checkNotDeleted(path, opts); err != nil {
		return SetupResult{Warnings: warnings}, err
	}
	res, err := LoadWithGit(path, opts)
	warnings = append(warnings, res.Warnings...)
	if err != nil {
		return SetupResult{Warnings: warnings}, refuseInvalid(path, err)
	}
	s, err := BuildFromAnswers(a, res.Seed, detectedTZ)
	if err != nil {
		return SetupResult{}, err
	}
	saved, err := Save(path, s, CategoryInit, "first-run setup completed", opts)
	if err != nil {
		return SetupResult{}, err
	}
	return SetupResult{Configured: true, Config: s, Warnings: append(warnings, saved...)}, nil
}

// DetectTimezone returns the IANA zone from tzVar (the TZ variable),
// /etc/timezone or the /etc/localtime link, or "" when none is found.
func DetectTimezone(tzVar string) string {
	if tz := strings.TrimPrefix(tzVar, ":"); tz != "" && !strings.HasPrefix(tz, "/") {
		return tz
	}
	if b, err := os.ReadFile("/etc/timezone"); err == nil {
		if tz := strings.TrimSpace(string(b)); tz != "" {
			return tz
		}
	}
	if target, err := os.Readlink("/etc/localtime"); err == nil {
		if i := strings.Index(target, "zoneinfo/"); i >= 0 {
			return filepath.Clean(target[i+len("zoneinfo/"):])
		}
	}
	return ""
}

// ErrNoAnswer is returned by [PromptAnswers] when input ends before the
// required name was given.
var ErrNoAnswer = errors.New("seed: setup aborted: no name given")

// PromptAnswers asks the setup questions on w and reads one line per answer
// from r; an empty line takes the default shown in brackets. The name is asked
// again until it is non-empty, the response style until it is valid.
func PromptAnswers(r io.Reader, w io.Writer, def Answers) (Answers, error) {
	in := bufio.NewReader(r)
	ask := func(q, d string) (string, bool) {
		if d != "" {
			fmt.Fprintf(w, "%s [%s]: ", q, d)
		} else {
			fmt.Fprintf(w, "%s: ", q)
		}
		line, err := in.ReadString('\n')
		line = strings.TrimSpace(line)
		if line == "" {
			line = d
		}
		return line, err == nil || line != ""
	}
	var a Answers
	for a.PrincipalName == "" {
		v, ok := ask("Your name", def.PrincipalName)
		if !ok {
			return a, ErrNoAnswer
		}
		a.PrincipalName = v
	}
	a.AIName, _ = ask("Your AI's name", or(def.AIName, DefaultAIName))
	a.Catchphrase, _ = ask("Catchphrase", or(def.Catchphrase, DefaultCatchphrase(a.AIName)))
	for {
		v, ok := ask("Response style (concise, detailed, adaptive)", or(def.ResponseStyle, DefaultStyle))
		if v == "concise" || v == "detailed" || v == "adaptive" || !ok {
			a.ResponseStyle = v
			break
		}
		fmt.Fprintln(w, "Please answer concise, detailed or adaptive.")
	}
	a.Timezone, _ = ask("Timezone", or(def.Timezone, DefaultTimezone))
	a.Locale, _ = ask("Locale", or(def.Locale, DefaultLocale))
	a.VoiceID = def.VoiceID
	return a, nil
}

func or(v, d string) string {
	if v != "" {
		return v
	}
	return d
}
