package marker

import (
	"os"
	"path/filepath"
	"reflect"
	"strings"
	"testing"
	"time"
)

func ids(list []Marker) []string {
	var out []string
	for _, m := range list {
		out = append(out, m.SessionID)
	}
	return out
}

// TestWriteListRemove: a marker written is listed with its project and
// time, rewritten in place, removed once (a second remove and a missing
// directory are no error); invalid ids are refused or never match a file.
func TestWriteListRemove(t *testing.T) {
	data := t.TempDir()
	if list, err := List(data); err != nil || list != nil {
		t.Fatalf("no directory: %v, %v", list, err)
	}
	at := time.Date(2026, 12, 5, 8, 0, 0, 0, time.UTC)
	for _, m := range []Marker{{SessionID: "b", Project: "/p/b", At: at}, {SessionID: "a", Project: "/p/a", At: at}, {SessionID: "a", Project: "/p/a2", At: at}} {
		if err := Write(data, m); err != nil {
			t.Fatal(err)
		}
	}
	list, err := List(data)
	if err != nil {
		t.Fatal(err)
	}
	want := []Marker{{SessionID: "a", Project: "/p/a2", At: at}, {SessionID: "b", Project: "/p/b", At: at}}
	if !reflect.DeepEqual(list, want) {
		t.Errorf("List = %+v, want %+v", list, want)
	}
	for _, id := range []string{"", ".", "..", "../x", `a\b`, ".tmp-1"} {
		if err := Write(data, Marker{SessionID: id, At: at}); err == nil {
			t.Errorf("Write(%q) succeeded", id)
		}
		if err := Remove(data, id); err != nil {
			t.Errorf("Remove(%q) = %v", id, err)
		}
	}
	for range 2 {
		if err := Remove(data, "a"); err != nil {
			t.Fatal(err)
		}
	}
	if list, _ := List(data); !reflect.DeepEqual(ids(list), []string{"b"}) {
		t.Errorf("after Remove(a): %v", ids(list))
	}
}

// TestBadFilesIgnored: files that are not markers (garbage, empty JSON,
// a marker without a time, a temporary file, a directory, one too large)
// are not listed, never make List fail and never cover a directory.
func TestBadFilesIgnored(t *testing.T) {
	data := t.TempDir()
	dir := Dir(data)
	if err := os.MkdirAll(filepath.Join(dir, "subdir"), 0o700); err != nil {
		t.Fatal(err)
	}
	for name, content := range map[string]string{
		"garbage": "not json", "empty": "{}", "no-time": `{"project":"/p"}`, ".tmp-123": `{"project":"","at":"2026-12-05T08:00:00Z"}`,
		"huge": `{"project":"` + strings.Repeat("x", maxSize) + `","at":"2026-12-05T08:00:00Z"}`,
	} {
		if err := os.WriteFile(filepath.Join(dir, name), []byte(content), 0o600); err != nil {
			t.Fatal(err)
		}
	}
	if list, err := List(data); err != nil || len(list) != 0 {
		t.Errorf("List = %+v, %v; want nothing", list, err)
	}
	if m, ok := Covering(data, "/p"); ok {
		t.Errorf("Covering found %+v", m)
	}
	if err := os.WriteFile(filepath.Join(data, "file"), nil, 0o600); err != nil {
		t.Fatal(err)
	}
	if _, ok := Covering(filepath.Join(data, "file"), ""); ok { // DATA_DIR is a file: no marker, no panic
		t.Error("a file as DATA_DIR covers")
	}
}

// TestCovering: a marker covers its project and every directory below it,
// symbolic links resolved, not a sibling with the same prefix; an empty
// cwd or an empty project matches any, as the store's lookup does.
func TestCovering(t *testing.T) {
	data, root := t.TempDir(), t.TempDir()
	project := filepath.Join(root, "proj")
	if err := os.MkdirAll(filepath.Join(project, "src"), 0o755); err != nil {
		t.Fatal(err)
	}
	link := filepath.Join(root, "link")
	if err := os.Symlink(project, link); err != nil {
		t.Fatal(err)
	}
	if _, ok := Covering(data, project); ok {
		t.Fatal("covered without a marker")
	}
	if err := Write(data, Marker{SessionID: "s1", Project: project, At: time.Now()}); err != nil {
		t.Fatal(err)
	}
	for cwd, want := range map[string]bool{
		project: true, filepath.Join(project, "src"): true, filepath.Join(link, "src"): true, "": true,
		root: false, project + "2": false, filepath.Join(root, "other"): false,
	} {
		if m, ok := Covering(data, cwd); ok != want || (ok && m.SessionID != "s1") {
			t.Errorf("Covering(%q) = %+v, %v; want %v", cwd, m, ok, want)
		}
	}
	if err := Write(data, Marker{SessionID: "s2", At: time.Now()}); err != nil {
		t.Fatal(err)
	}
	if m, ok := Covering(data, filepath.Join(root, "other")); !ok || m.SessionID != "s2" {
		t.Errorf("a marker without a project does not cover: %+v %v", m, ok)
	}
}

// TestPrune: markers of inactive sessions and stray files go once older
// than Grace; active sessions' markers and young ones stay.
func TestPrune(t *testing.T) {
	data := t.TempDir()
	now := time.Now()
	old := now.Add(-2 * Grace)
	for _, m := range []Marker{{SessionID: "active", At: old}, {SessionID: "ended", At: old}, {SessionID: "young", At: now}} {
		if err := Write(data, m); err != nil {
			t.Fatal(err)
		}
	}
	for _, name := range []string{".tmp-old", ".tmp-young"} {
		p := filepath.Join(Dir(data), name)
		if err := os.WriteFile(p, []byte("{"), 0o600); err != nil {
			t.Fatal(err)
		}
		if name == ".tmp-old" {
			if err := os.Chtimes(p, old, old); err != nil {
				t.Fatal(err)
			}
		}
	}
	if err := Prune(data, func(id string) bool { return id == "active" }, now); err != nil {
		t.Fatal(err)
	}
	list, _ := List(data)
	if got := ids(list); !reflect.DeepEqual(got, []string{"active", "young"}) {
		t.Errorf("after Prune: %v", got)
	}
	entries, _ := os.ReadDir(Dir(data))
	var names []string
	for _, e := range entries {
		names = append(names, e.Name())
	}
	if !reflect.DeepEqual(names, []string{".tmp-young", "active", "young"}) {
		t.Errorf("files after Prune: %v", names)
	}
	if err := Prune(t.TempDir(), func(string) bool { return false }, now); err != nil {
		t.Errorf("Prune without a directory: %v", err)
	}
}
