package seed

import (
	"bytes"
	"os"
	"path/filepath"
	"strings"
	"testing"
	"time"

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
