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

// Load error codes.
const (
	CodeParse      = "parse_error"
	CodeValidation = "validation_error"
	CodeRead       = "read_error"
	CodePermission = "permission_error"
)

// SchemaFileName is the JSON Schema written beside seed.json.
const SchemaFileName = "seed.schema.json"

// LoadError is a failed load: Code is one of [CodeParse], [CodeValidation],
// [CodeRead], [CodePermission]; Details lists validation problems.
type LoadError struct {
	Code    string            `json:"code"`
	Message string            `json:"message"`
	Details []ValidationError `json:"details,omitempty"`
}

func (e *LoadError) Error() string { return e.Message }

// Loaded is what [Load], [Peek] and [LoadWithGit] found. Created reports
// that a missing seed was written with the defaults; Merged that missing
// keys were filled in and written back. Warnings are problems that did not
// stop the load (git, a failed write-back); they are set with an error too.
type Loaded struct {
	Seed     *Seed
	Created  bool
	Merged   bool
	Warnings []string
}

// DefaultPath returns home/.pai/seed.json.
func DefaultPath(home string) string { return filepath.Join(home, ".pai", "seed.json") }

// Load reads the seed at path, creating it (and its schema file) with the
// defaults when missing, filling in missing keys from the defaults and writing
// the result back only when that changed something. An error is a
// *[LoadError].
func Load(path string) (Loaded, error) { return load(path, true) }

// Peek is [Load] without any write: a missing seed is reported as the
// defaults with Created set, a merge is applied in memory only.
func Peek(path string) (Loaded, error) { return load(path, false) }

func load(path string, write bool) (Loaded, error) {
	data, err := os.ReadFile(path)
	if errors.Is(err, fs.ErrNotExist) {
		s := Defaults()
		if write {
			if err := Write(path, s); err != nil {
				return Loaded{}, ioErr("Failed to create seed file", err)
			}
			if err := WriteSchema(filepath.Join(filepath.Dir(path), SchemaFileName)); err != nil {
				return Loaded{Seed: s, Created: true, Warnings: []string{err.Error()}}, nil
			}
		}
		return Loaded{Seed: s, Created: true}, nil
	}
	if err != nil {
		return Loaded{}, ioErr("Failed to read seed file", err)
	}
	res, err := parse(path, data, write)
	if err == nil {
		withLoggedSessions(path, res.Seed)
	}
	return res, err
}

func parse(path string, data []byte, write bool) (Loaded, error) {
	if strings.TrimSpace(string(data)) == "" {
		return Loaded{}, &LoadError{Code: CodeParse, Message: "Seed file is empty"}
	}
	tree, err := decodeAny(data)
	if err != nil {
		return Loaded{}, &LoadError{Code: CodeParse, Message: "Invalid JSON in seed file: " + err.Error()}
	}
	obj, isObj := tree.(map[string]any)
	if !isObj {
		v := Validate(tree)
		return Loaded{}, &LoadError{Code: CodeValidation, Message: "Seed validation failed: " + v.Errors[0].Message, Details: v.Errors}
	}
	merged, changed := MergeWithDefaults(obj)
	v := Validate(merged)
	if !v.Valid {
		return Loaded{}, &LoadError{Code: CodeValidation, Message: validationMessage(v.Errors), Details: v.Errors}
	}
	src := data
	if changed {
		var buf bytes.Buffer
		enc := json.NewEncoder(&buf)
		enc.SetEscapeHTML(false) // unknown keys are copied verbatim into the rewrite
		if err := enc.Encode(merged); err != nil {
			return Loaded{}, &LoadError{Code: CodeParse, Message: "Invalid JSON in seed file: " + err.Error()}
		}
		src = buf.Bytes()
	}
	s, err := Decode(src)
	if err != nil {
		return Loaded{}, &LoadError{Code: CodeParse, Message: "Invalid JSON in seed file: " + err.Error()}
	}
	res := Loaded{Seed: s, Merged: changed, Warnings: v.Warnings}
	if changed && write {
		if err := Write(path, s); err != nil {
			res.Warnings = append(res.Warnings, "could not write merged seed: "+err.Error())
		}
	}
	return res, nil
}

func validationMessage(errs []ValidationError) string {
	first := errs[0]
	msg := fmt.Sprintf("Seed validation failed: %s: %s", first.Path, first.Message)
	if len(errs) > 1 {
		msg += fmt.Sprintf(" (and %d more)", len(errs)-1)
	}
	return msg
}

// ioErr is a *LoadError for a failed read or write: permission_error or
// read_error.
func ioErr(what string, err error) *LoadError {
	code := CodeRead
	if errors.Is(err, fs.ErrPermission) {
		code = CodePermission
	}
	return &LoadError{Code: code, Message: what + ": " + err.Error()}
}

// Write validates s and atomically replaces the file at path with its
// encoding (see [Encode]): a temp file in the same directory is written,
// fsynced and renamed over path. Parent directories are created. An invalid
// seed is refused with an error naming the first problem.
func Write(path string, s *Seed) error {
	data, err := Encode(s)
	if err != nil {
		return err
	}
	if v := ValidateJSON(data); !v.Valid {
		return fmt.Errorf("seed: refusing to write invalid seed: %s", validationMessage(v.Errors))
	}
	return writeAtomic(path, data, 0o600)
}

// WriteSchema writes the seed's JSON Schema (draft-07) to path atomically.
func WriteSchema(path string) error {
	data, err := JSONSchema()
	if err != nil {
		return err
	}
	return writeAtomic(path, data, 0o644)
}

func writeAtomic(path string, data []byte, perm os.FileMode) (err error) {
	dir := filepath.Dir(path)
	if err := os.MkdirAll(dir, 0o700); err != nil {
		return fmt.Errorf("seed: create directory: %w", err)
	}
	f, err := os.CreateTemp(dir, "."+filepath.Base(path)+".*.tmp")
	if err != nil {
		return fmt.Errorf("seed: create temp file: %w", err)
	}
	tmp := f.Name()
	defer func() {
		if err != nil {
			os.Remove(tmp)
		}
	}()
	if _, err = f.Write(data); err == nil {
		err = f.Sync()
	}
	if cerr := f.Close(); err == nil {
		err = cerr
	}
	if err == nil {
		err = os.Chmod(tmp, perm)
	}
	if err != nil {
		return fmt.Errorf("seed: write %s: %w", path, err)
	}
	if hookBeforeRename != nil {
		hookBeforeRename(path)
	}
	if err = os.Rename(tmp, path); err != nil {
		return fmt.Errorf("seed: replace %s: %w", path, err)
	}
	if d, derr := os.Open(dir); derr == nil {
		_ = d.Sync() // best effort: make the rename durable
		d.Close()
	}
	return nil
}

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
