package sqlite

import (
	"context"
	"os"
	"path/filepath"
	"slices"
	"sync"
	"testing"
	"testing/fstest"
)

// dirNames lists the names in dir.
func dirNames(t *testing.T, dir string) []string {
	t.Helper()
	entries, err := os.ReadDir(dir)
	if err != nil {
		t.Fatal(err)
	}
	var out []string
	for _, e := range entries {
		out = append(out, e.Name())
	}
	return out
}

// openMigrated opens path and migrates it, as every store does.
func openMigrated(t *testing.T, path, ns string, fsys any) string {
	t.Helper()
	ctx := context.Background()
	db, err := Open(ctx, path)
	if err != nil {
		t.Fatal(err)
	}
	defer db.Close()
	if err := Migrate(ctx, db, ns, fsys.(fstest.MapFS)); err != nil {
		t.Fatal(err)
	}
	return dump(t, db)
}

// TestCreateMigratedMatchesInPlace makes each of Paige's databases with
// CreateMigrated and checks it against one made in place by Open and
// Migrate: the same schema, rows and recorded versions, in WAL mode, with
// nothing left beside it and nothing written by the Open and Migrate that
// follow.
func TestCreateMigratedMatchesInPlace(t *testing.T) {
	ctx := context.Background()
	for ns, dir := range realMigrations {
		t.Run(ns, func(t *testing.T) {
			fsys := os.DirFS(dir)
			migs, _ := list(fsys)
			mapFS := firstMigrations(t, fsys, len(migs))
			if snap, err := os.ReadFile(filepath.Join(dir, SnapshotName)); err == nil {
				mapFS[SnapshotName] = &fstest.MapFile{Data: snap}
			}
			made, inPlace := t.TempDir(), t.TempDir()
			path := filepath.Join(made, "x.db")
			created, err := CreateMigrated(ctx, path, ns, mapFS)
			if err != nil || !created {
				t.Fatalf("CreateMigrated = %v, %v", created, err)
			}
			if names := dirNames(t, made); !slices.Equal(names, []string{"x.db"}) {
				t.Errorf("left beside it: %v", names)
			}
			db, err := Open(ctx, path)
			if err != nil {
				t.Fatal(err)
			}
			defer db.Close()
			if err := Migrate(ctx, db, ns, mapFS); err != nil {
				t.Fatal(err)
			}
			var mode string
			if err := db.QueryRow("PRAGMA journal_mode").Scan(&mode); err != nil || mode != "wal" {
				t.Errorf("journal_mode %q, %v", mode, err)
			}
			if st, err := os.Stat(path + "-wal"); err == nil && st.Size() != 0 {
				t.Errorf("Open and Migrate wrote %d bytes of WAL to a complete database", st.Size())
			}
			if got, want := dump(t, db), openMigrated(t, filepath.Join(inPlace, "x.db"), ns, mapFS); got != want {
				t.Errorf("made:\n%s\nin place:\n%s", got, want)
			}
		})
	}
}

func TestCreateMigratedLeavesExistingFiles(t *testing.T) {
	ctx := context.Background()
	fsys := fstest.MapFS{"001_a.sql": {Data: []byte("CREATE TABLE a (id INTEGER PRIMARY KEY);")}}
	dir := t.TempDir()
	for name, body := range map[string]string{"empty.db": "", "junk.db": "not a database"} {
		path := filepath.Join(dir, name)
		if err := os.WriteFile(path, []byte(body), 0o644); err != nil {
			t.Fatal(err)
		}
		if created, err := CreateMigrated(ctx, path, "ns", fsys); created || err != nil {
			t.Errorf("%s: CreateMigrated = %v, %v; want false, nil", name, created, err)
		}
		if b, _ := os.ReadFile(path); string(b) != body {
			t.Errorf("%s changed: %q", name, b)
		}
	}
}

// TestCreateMigratedFailureLeavesNothing: migrations that fail leave no
// file; the caller's Open and Migrate then fail as before.
func TestCreateMigratedFailureLeavesNothing(t *testing.T) {
	ctx := context.Background()
	fsys := fstest.MapFS{"001_a.sql": {Data: []byte("CREAT TABLE a (id INTEGER);")}}
	dir := t.TempDir()
	if created, err := CreateMigrated(ctx, filepath.Join(dir, "x.db"), "ns", fsys); created || err == nil {
		t.Fatalf("CreateMigrated = %v, %v; want an error", created, err)
	}
	if names := dirNames(t, dir); len(names) != 0 {
		t.Errorf("left: %v", names)
	}
}

// TestCreateMigratedConcurrent: processes starting at once make the
// database once; each then opens it.
func TestCreateMigratedConcurrent(t *testing.T) {
	ctx := context.Background()
	fsys := fstest.MapFS{"001_a.sql": {Data: []byte("CREATE TABLE a (id INTEGER PRIMARY KEY);")}}
	path := filepath.Join(t.TempDir(), "x.db")
	var wg sync.WaitGroup
	results := make([]bool, 4)
	for i := range results {
		wg.Go(func() {
			created, err := CreateMigrated(ctx, path, "ns", fsys)
			if err != nil {
				t.Error(err)
			}
			results[i] = created
		})
	}
	wg.Wait()
	if n := len(slices.DeleteFunc(results, func(c bool) bool { return !c })); n != 1 {
		t.Errorf("made %d times, want once", n)
	}
	if names := dirNames(t, filepath.Dir(path)); !slices.Equal(names, []string{"x.db"}) {
		t.Errorf("left: %v", names)
	}
	openMigrated(t, path, "ns", fsys)
}
