// Package seed owns the personal seed: the JSON file (default
// ~/.pai/seed.json) holding who the user and their AI are (identity), what
// has been learned about the user (learned), and session state (proposals,
// active projects, checkpoints).
//
// # Invariants
//
//   - A seed on disk is only ever replaced atomically (temp file, fsync,
//     rename) and only with a value that passes [Validate].
//   - Reading a seed never panics; every failure is a [LoadResult] with one of
//     the codes [CodeParse], [CodeValidation], [CodeRead], [CodePermission].
//   - The seed is the user's data. [ReadOnly] (used by the SessionStart hook,
//     `seed show`, `seed check`) never writes anything; it presents every
//     valid value and lists the invalid ones as [Problem]s. Writes ([Update],
//     [RunSetup]) refuse a seed that does not parse or validate and leave it
//     untouched; only [Repair] rewrites it, keeping every valid value and a
//     backup.
//   - A write killed at any point leaves nothing that the next write would
//     sweep into its own commit: before every write, under the seed lock,
//     stale temp files and git locks are removed and an uncommitted valid
//     change is committed on its own as "Recover:" (see [Update]).
//   - The seed's directory is a git repository (when a git binary is
//     available); every change is committed with a categorised message, and a
//     git failure never fails a write (it becomes a warning).
//
// # Layout
//
// The pure core (types, [Validate], [Merge], [JSONSchema], the session
// formatters, id resolution, duplicate detection, [Salvage]) does no I/O.
// The shell ([ReadOnly], [Load], [Write], [LoadWithGit], [Repair],
// [RunSetup], [AddProposals], [GenerateSessionContext]) reads and writes
// files and runs git.
//
// # Deviations from the original
//
//   - F-003 repairs an invalid seed on load; here nothing repairs on load
//     (see the invariants): the SessionStart hook is read-only, as the F-005
//     plan says, and only `paige seed repair` rewrites.
//   - [GenerateSessionContext] reads the seed once and never writes: a
//     missing seed gives the setup message without creating the file, a seed
//     with invalid values is presented with a one-line warning, and a seed
//     that cannot be read is reported as an error rather than as "needs
//     setup", because telling a user with an unreadable seed to run setup
//     would hide the real problem.
//   - A seed whose major version is newer ("requires migration") is never
//     repaired, so a newer tool's data is not reset to defaults.
//   - The plan's example context lists an unconfirmed learning under "Recent
//     patterns"; its own rule (only confirmed items are listed) wins. Listed
//     items are the most recently confirmed first.
//   - The seed repository is the seed's own directory: a seed inside another
//     repository gets its own nested repository instead of commits in the
//     outer one.
package seed

import (
	"encoding/json"
	"time"
)

// CurrentMajorVersion is the schema major version this package reads.
const CurrentMajorVersion = 1

// Proposal and learning types, statuses, response styles and methods.
const (
	TypePattern       = "pattern"
	TypeInsight       = "insight"
	TypeSelfKnowledge = "self_knowledge"

	StatusPending  = "pending"
	StatusAccepted = "accepted"
	StatusRejected = "rejected"

	MethodACR   = "acr"
	MethodRegex = "regex"
)

// Seed is the whole seed file. Extra holds unknown top-level keys verbatim so
// a newer tool's data survives a round trip; unknown nested keys are dropped.
type Seed struct {
	Version  string   `json:"version"`
	Identity Identity `json:"identity"`
	Learned  Learned  `json:"learned"`
	State    State    `json:"state"`

	// Extra maps unknown top-level keys to their raw JSON values.
	Extra map[string]json.RawMessage `json:"-"`
}

// Identity is who the AI is and who it works with.
type Identity struct {
	PrincipalName string      `json:"principalName"`
	AIName        string      `json:"aiName"`
	Catchphrase   string      `json:"catchphrase"`
	VoiceID       string      `json:"voiceId"`
	Preferences   Preferences `json:"preferences"`
}

// Preferences shape responses: ResponseStyle is concise, detailed or adaptive.
type Preferences struct {
	ResponseStyle string `json:"responseStyle"`
	Timezone      string `json:"timezone"`
	Locale        string `json:"locale"`
}

// Learned holds confirmed and unconfirmed learnings by category.
type Learned struct {
	Patterns      []Learning `json:"patterns"`
	Insights      []Learning `json:"insights"`
	SelfKnowledge []Learning `json:"selfKnowledge"`
}

// Learning is one learned item. Datetimes are ISO 8601 UTC strings ending in Z.
type Learning struct {
	ID          string   `json:"id"`
	Content     string   `json:"content"`
	Source      string   `json:"source"`
	ExtractedAt string   `json:"extractedAt"`
	ConfirmedAt string   `json:"confirmedAt,omitempty"`
	Confirmed   bool     `json:"confirmed"`
	Tags        []string `json:"tags"`
}

// State is session-to-session operational state. Empty optional strings are
// omitted from the file.
type State struct {
	LastSessionID   string           `json:"lastSessionId,omitempty"`
	LastSessionAt   string           `json:"lastSessionAt,omitempty"`
	Proposals       []Proposal       `json:"proposals"`
	ActiveProjects  []string         `json:"activeProjects"`
	CheckpointRef   string           `json:"checkpointRef,omitempty"`
	ExtractionStats *ExtractionStats `json:"extractionStats,omitempty"`
}

// Proposal is a candidate learning waiting for the user's decision. Type is
// pattern, insight or self_knowledge; Status is pending, accepted or rejected;
// Method, when set, is acr or regex.
type Proposal struct {
	ID          string   `json:"id"`
	Type        string   `json:"type"`
	Content     string   `json:"content"`
	Source      string   `json:"source"`
	ExtractedAt string   `json:"extractedAt"`
	Status      string   `json:"status"`
	Method      string   `json:"method,omitempty"`
	Confidence  *float64 `json:"confidence,omitempty"`
	DecidedAt   string   `json:"decidedAt,omitempty"`
	// Project is the identity (internal/project) of the project the
	// proposal was learned in; empty for what holds everywhere. The
	// SessionStart context lists a project's proposals in that project only.
	Project string `json:"project,omitempty"`
}

// Counts is a pair of accepted/rejected counters or sums.
type Counts struct {
	Accepted float64 `json:"accepted"`
	Rejected float64 `json:"rejected"`
}

// TypeCounts holds [Counts] per proposal type.
type TypeCounts struct {
	Pattern       Counts `json:"pattern"`
	Insight       Counts `json:"insight"`
	SelfKnowledge Counts `json:"self_knowledge"`
}

// ExtractionStats are cumulative decision counters that let extraction learn
// which proposals the user keeps.
type ExtractionStats struct {
	Accepted        float64    `json:"accepted"`
	Rejected        float64    `json:"rejected"`
	ByType          TypeCounts `json:"byType"`
	ConfidenceSum   Counts     `json:"confidenceSum"`
	ConfidenceCount Counts     `json:"confidenceCount"`
}

// Default identity values; [IsFirstRun] compares against DefaultPrincipalName.
const (
	DefaultVersion       = "1.0.0"
	DefaultPrincipalName = "User"
	DefaultAIName        = "PAI"
	DefaultVoiceID       = "default"
	DefaultStyle         = "adaptive"
	DefaultTimezone      = "UTC"
	DefaultLocale        = "en-US"
)

// DefaultCatchphrase returns the catchphrase used when none is given.
func DefaultCatchphrase(aiName string) string { return aiName + " here, ready to go." }

// Defaults returns a fresh default seed; callers may modify it freely.
func Defaults() *Seed {
	return &Seed{
		Version: DefaultVersion,
		Identity: Identity{
			PrincipalName: DefaultPrincipalName,
			AIName:        DefaultAIName,
			Catchphrase:   DefaultCatchphrase(DefaultAIName),
			VoiceID:       DefaultVoiceID,
			Preferences: Preferences{
				ResponseStyle: DefaultStyle,
				Timezone:      DefaultTimezone,
				Locale:        DefaultLocale,
			},
		},
		Learned: Learned{Patterns: []Learning{}, Insights: []Learning{}, SelfKnowledge: []Learning{}},
		State:   State{Proposals: []Proposal{}, ActiveProjects: []string{}},
	}
}

// FormatTime renders t as the seed's datetime form: UTC, millisecond
// precision, trailing Z.
func FormatTime(t time.Time) string { return t.UTC().Format("2006-01-02T15:04:05.000Z") }

// category returns a pointer to the learnings of proposal type typ, or nil
// for an unknown type.
func (l *Learned) category(typ string) *[]Learning {
	switch typ {
	case TypePattern:
		return &l.Patterns
	case TypeInsight:
		return &l.Insights
	case TypeSelfKnowledge:
		return &l.SelfKnowledge
	}
	return nil
}
