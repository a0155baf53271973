package seed

import (
	"bytes"
	"encoding/json"
	"fmt"
	"sort"
	"strconv"
	"strings"
	"time"
)

// Validation error codes. The first six steps use the codes of the
// foundations page; the structural step uses the codes a Zod schema reports.
const (
	CodeInvalidType     = "invalid_type"
	CodeMissingField    = "missing_field"
	CodeInvalidFormat   = "invalid_format"
	CodeVersionMismatch = "version_mismatch"
	CodeInvalidEnum     = "invalid_enum_value"
	CodeTooSmall        = "too_small"
	CodeInvalidString   = "invalid_string"
)

// ValidationError is one problem found by [Validate]. Path is a dotted JSON
// path such as "$.state.proposals.0.type".
type ValidationError struct {
	Path    string `json:"path"`
	Message string `json:"message"`
	Code    string `json:"code"`
}

// ValidationResult is the outcome of [Validate]: Valid with optional
// Warnings, or not Valid with at least one error.
type ValidationResult struct {
	Valid    bool              `json:"valid"`
	Errors   []ValidationError `json:"errors,omitempty"`
	Warnings []string          `json:"warnings,omitempty"`
}

// knownTopLevel reports whether key is one of the seed's top-level keys.
func knownTopLevel(key string) bool {
	switch key {
	case "version", "identity", "learned", "state":
		return true
	}
	return false
}

// ValidateJSON decodes data (numbers as [json.Number]) and validates it. Empty
// input and the literal null fail step 1; malformed JSON fails with code
// invalid_format at "$".
func ValidateJSON(data []byte) ValidationResult {
	v, err := decodeAny(data)
	if err != nil {
		return fail("$", "Invalid JSON: "+err.Error(), CodeInvalidFormat)
	}
	return Validate(v)
}

// decodeAny decodes one JSON value with numbers kept as json.Number. Empty
// input decodes to nil.
func decodeAny(data []byte) (any, error) {
	if len(bytes.TrimSpace(data)) == 0 {
		return nil, nil
	}
	dec := json.NewDecoder(bytes.NewReader(data))
	dec.UseNumber()
	var v any
	if err := dec.Decode(&v); err != nil {
		return nil, err
	}
	if _, err := dec.Token(); err == nil {
		return nil, fmt.Errorf("unexpected data after the top-level value")
	}
	return v, nil
}

// Validate checks a decoded JSON value (as produced by encoding/json into
// any, numbers as float64 or json.Number) against the seed schema, in the
// foundations page's order: null, non-object, missing version, non-string
// version, non-semver version, wrong major version (each stopping at the
// first failure), then every structural problem, then warnings for unknown
// top-level keys (sorted). Validate never panics.
func Validate(data any) ValidationResult {
	if data == nil {
		return fail("$", "Seed data must be a non-null object", CodeInvalidType)
	}
	root, ok := data.(map[string]any)
	if !ok {
		return fail("$", "Expected object, received "+typeName(data), CodeInvalidType)
	}
	rawVersion, ok := root["version"]
	if !ok {
		return fail("$.version", "Missing required field: version", CodeMissingField)
	}
	version, ok := rawVersion.(string)
	if !ok {
		return fail("$.version", "Version must be a string, received "+typeName(rawVersion), CodeInvalidType)
	}
	if !isSemver(version) {
		return fail("$.version", fmt.Sprintf("Invalid version format: %q. Expected semver (e.g., 1.0.0)", version), CodeInvalidFormat)
	}
	if major, _ := strconv.Atoi(version[:strings.IndexByte(version, '.')]); major != CurrentMajorVersion {
		return fail("$.version", fmt.Sprintf("Schema version %s requires migration. Expected %d.x.x", version, CurrentMajorVersion), CodeVersionMismatch)
	}
	var c checker
	c.identity(root)
	c.learned(root)
	c.state(root)
	if len(c.errs) > 0 {
		return ValidationResult{Errors: c.errs}
	}
	var warnings []string
	for k := range root {
		if !knownTopLevel(k) {
			warnings = append(warnings, fmt.Sprintf("Unknown top-level key: %q (may be from a newer schema version)", k))
		}
	}
	sort.Strings(warnings)
	return ValidationResult{Valid: true, Warnings: warnings}
}

func fail(path, msg, code string) ValidationResult {
	return ValidationResult{Errors: []ValidationError{{Path: path, Message: msg, Code: code}}}
}

// isSemver reports whether s is MAJOR.MINOR.PATCH with decimal digits only.
func isSemver(s string) bool {
	parts := 0
	digits := 0
	for i := 0; i < len(s); i++ {
		switch c := s[i]; {
		case c >= '0' && c <= '9':
			digits++
		case c == '.' && digits > 0 && parts < 2:
			parts++
			digits = 0
		default:
			return false
		}
	}
	return parts == 2 && digits > 0
}

// typeName names v's JSON type the way the error messages do.
func typeName(v any) string {
	switch v.(type) {
	case nil:
		return "null"
	case string:
		return "string"
	case bool:
		return "boolean"
	case float64, json.Number, int, int64:
		return "number"
	case []any:
		return "array"
	case map[string]any:
		return "object"
	}
	return fmt.Sprintf("%T", v)
}

// IsDatetime reports whether s is an ISO 8601 datetime in UTC with a
// trailing Z (YYYY-MM-DDTHH:MM:SS, optional fractional seconds) naming a
// real instant: offsets, date-only values and impossible dates fail.
func IsDatetime(s string) bool {
	const base = "0000-00-00T00:00:00"
	if len(s) < len(base)+1 || s[len(s)-1] != 'Z' {
		return false
	}
	for i := 0; i < len(base); i++ {
		c := s[i]
		if base[i] == '0' {
			if c < '0' || c > '9' {
				return false
			}
		} else if c != base[i] {
			return false
		}
	}
	frac := s[len(base) : len(s)-1]
	if frac != "" {
		if frac[0] != '.' || len(frac) == 1 {
			return false
		}
		for i := 1; i < len(frac); i++ {
			if frac[i] < '0' || frac[i] > '9' {
				return false
			}
		}
	}
	_, err := time.Parse("2006-01-02T15:04:05", s[:len(base)])
	return err == nil
}
