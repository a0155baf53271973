package seed

import (
	"bytes"
	"encoding/json"
	"errors"
	"fmt"
	"io/fs"
	"os"
	"path/filepath"
	"sort"
	"strings"
	"time"
)

// ErrNoSeed is returned (wrapped) by [ReadOnly] when no seed file exists.
var ErrNoSeed = errors.New("seed: no seed file")

// ReadOnly reads the seed at path without ever writing anything: no file,
// no git, no copies. It returns the seed with every valid value kept and
// every invalid one fixed in memory (see [Salvage]), the problems found
// (empty for a valid seed), and an error only when nothing can be presented:
//   - no file: an error wrapping [ErrNoSeed] (and [fs.ErrNotExist]);
//   - unreadable, empty, not JSON, not a JSON object, or a newer major
//     version: a *[LoadError] with code read_error, permission_error,
//     parse_error or validation_error.
//
// Missing keys are filled from the defaults in memory and are not problems.
func ReadOnly(path string) (s *Seed, problems []Problem, err error) {
	data, err := os.ReadFile(path)
	if errors.Is(err, fs.ErrNotExist) {
		return nil, nil, fmt.Errorf("%w at %s: %w", ErrNoSeed, path, err)
	}
	if err != nil {
		return nil, nil, ioErr("Failed to read seed file", err)
	}
	s, problems, err = salvageBytes(data, time.Now())
	if err == nil {
		withLoggedSessions(path, s)
	}
	return s, problems, err
}

// salvageBytes parses data and salvages it (see [ReadOnly]).
func salvageBytes(data []byte, now time.Time) (*Seed, []Problem, error) {
	if strings.TrimSpace(string(data)) == "" {
		return nil, nil, &LoadError{Code: CodeParse, Message: "Seed file is empty"}
	}
	tree, err := decodeAny(data)
	if err != nil {
		return nil, nil, &LoadError{Code: CodeParse, Message: "Invalid JSON in seed file: " + err.Error()}
	}
	obj, isObj := tree.(map[string]any)
	if !isObj {
		v := Validate(tree)
		return nil, nil, &LoadError{Code: CodeValidation, Message: "Seed validation failed: " + v.Errors[0].Message, Details: v.Errors}
	}
	merged := Merge(defaultTree(), obj) // MergeWithDefaults without its comparison
	fixed, problems, ok := Salvage(merged, now)
	if !ok {
		v := Validate(fixed)
		return nil, problems, &LoadError{Code: CodeValidation, Message: validationMessage(v.Errors), Details: v.Errors}
	}
	var buf bytes.Buffer
	enc := json.NewEncoder(&buf)
	enc.SetEscapeHTML(false)
	if err := enc.Encode(fixed); err != nil {
		return nil, problems, &LoadError{Code: CodeParse, Message: "Invalid JSON in seed file: " + err.Error()}
	}
	s, err := Decode(buf.Bytes())
	if err != nil {
		return nil, problems, &LoadError{Code: CodeParse, Message: "Invalid JSON in seed file: " + err.Error()}
	}
	return s, problems, nil
}

// Check reads the seed at path like [ReadOnly] and returns only the problems
// and the error; it never writes.
func Check(path string) ([]Problem, error) {
	_, problems, err := ReadOnly(path)
	return problems, err
}

// CheckHint is the command that lists a seed's problems.
const CheckHint = "run `paige seed check`"

// InvalidValuesWarning is the one-line warning for a seed file named name
// with n invalid values, e.g. "seed.json has 2 invalid values; run `paige
// seed check`".
func InvalidValuesWarning(name string, n int) string {
	noun := "values"
	if n == 1 {
		noun = "value"
	}
	return fmt.Sprintf("%s has %d invalid %s; %s", name, n, noun, CheckHint)
}

// unreadableHint is appended to a load error that leaves the file as it is.
func unreadableHint(path string) string {
	return filepath.Base(path) + " was left untouched; " + CheckHint
}

// unknownKeyWarnings are [Validate]'s warnings for s's unknown top-level keys.
func unknownKeyWarnings(s *Seed) []string {
	var w []string
	for k := range s.Extra {
		w = append(w, fmt.Sprintf("Unknown top-level key: %q (may be from a newer schema version)", k))
	}
	sort.Strings(w)
	return w
}
