package sqlite

import (
	"bytes"
	"context"
	"errors"
	"flag"
	"os"
	"path/filepath"
	"testing"
	"testing/fstest"
)

var updateSnapshots = flag.Bool("update-snapshots", false, "rewrite each migration directory's "+SnapshotName)

// TestSchemaSnapshots checks each of Paige's snapshots against the one its
// migrations make now (run `go generate ./internal/sqlite` when it fails;
// -update-snapshots rewrites them), and that Migrate applies it to a new
// database.
func TestSchemaSnapshots(t *testing.T) {
	ctx := context.Background()
	for ns, dir := range realMigrations {
		t.Run(ns, func(t *testing.T) {
			fsys := os.DirFS(dir)
			want, err := makeSnapshot(ctx, fsys)
			if err != nil {
				t.Fatal(err)
			}
			path := filepath.Join(dir, SnapshotName)
			if *updateSnapshots {
				if err := os.WriteFile(path, want, 0o644); err != nil {
					t.Fatal(err)
				}
				return
			}
			if got, err := os.ReadFile(path); err != nil || !bytes.Equal(got, want) {
				t.Fatalf("%s is stale (%v); run go generate ./internal/sqlite", path, err)
			}
			migs, _ := list(fsys)
			if snapshotFor(fsys, migs) == "" {
				t.Fatalf("%s not taken for its migrations", path)
			}
		})
	}
}

// TestSnapshotIgnoredWhenStale: a snapshot of other migrations (one added,
// one changed, one renamed) is ignored; the migrations run.
func TestSnapshotIgnoredWhenStale(t *testing.T) {
	ctx := context.Background()
	base := fstest.MapFS{
		"001_a.sql": {Data: []byte("CREATE TABLE a (id INTEGER PRIMARY KEY);")},
		"002_b.sql": {Data: []byte("CREATE TABLE b (id INTEGER PRIMARY KEY);")},
	}
	snap, err := makeSnapshot(ctx, base)
	if err != nil {
		t.Fatal(err)
	}
	with := func(extra fstest.MapFS) fstest.MapFS {
		out := fstest.MapFS{SnapshotName: {Data: snap}}
		for k, v := range base {
			out[k] = v
		}
		for k, v := range extra {
			if v == nil {
				delete(out, k)
			} else {
				out[k] = v
			}
		}
		return out
	}
	cases := map[string]fstest.MapFS{
		"added":   with(fstest.MapFS{"003_c.sql": {Data: []byte("CREATE TABLE c (id INTEGER);")}}),
		"changed": with(fstest.MapFS{"002_b.sql": {Data: []byte("CREATE TABLE b (id INTEGER PRIMARY KEY, v TEXT);")}}),
		"renamed": with(fstest.MapFS{"002_b.sql": nil, "002_bb.sql": {Data: []byte("CREATE TABLE b (id INTEGER PRIMARY KEY);")}}),
	}
	for name, fsys := range cases {
		t.Run(name, func(t *testing.T) {
			migs, _ := list(fsys)
			if snapshotFor(fsys, migs) != "" {
				t.Fatal("a stale snapshot was taken")
			}
			got, want := openTemp(t), openTemp(t)
			if err := Migrate(ctx, got, "ns", fsys); err != nil {
				t.Fatal(err)
			}
			if err := migrateEach(ctx, want, "ns", fsys); err != nil {
				t.Fatal(err)
			}
			if g, w := dump(t, got), dump(t, want); g != w {
				t.Errorf("got:\n%s\nwant:\n%s", g, w)
			}
		})
	}
	migs, _ := list(with(nil))
	if snapshotFor(with(nil), migs) == "" {
		t.Error("the snapshot of these very migrations was not taken")
	}
}

func TestMakeSnapshotRefusesRows(t *testing.T) {
	fsys := fstest.MapFS{"001_a.sql": {Data: []byte("CREATE TABLE a (v TEXT); INSERT INTO a VALUES ('x');")}}
	if _, err := makeSnapshot(context.Background(), fsys); !errors.Is(err, errSnapshotRows) {
		t.Fatalf("makeSnapshot = %v, want errSnapshotRows", err)
	}
}

// FuzzMigrateSnapshot checks Migrate with a snapshot of the fuzzed
// migrations against applying them one transaction each: the same
// schema, rows and recorded versions on a new database and on one
// migrated in part (where the snapshot is not used).
func FuzzMigrateSnapshot(f *testing.F) {
	f.Add([]byte{0, 0, 0, 0xff, 0, 2, 0, 0xff, 0, 6, 1})
	f.Add([]byte{0, 0, 0, 0xff, 0, 7, 3, 0xff, 0, 10, 0})
	f.Add([]byte{0, 0, 0, 0xff, 0, 18, 1, 19, 0, 0xff, 0, 4, 0})
	f.Add([]byte{1, 0, 0, 0xff, 0, 17, 2, 0xff, 0, 0, 1})
	f.Add([]byte("\x00\x00\x00\xff\x00C0000Z")) // sets user_version
	ctx := context.Background()
	f.Fuzz(func(t *testing.T, data []byte) {
		fsys, pre := fuzzMigrations(data)
		snap, err := makeSnapshot(ctx, fsys)
		if err != nil {
			return // the migrations fail or leave rows: no snapshot is made
		}
		fsys[SnapshotName] = &fstest.MapFile{Data: snap}
		got, want := openTemp(t), openTemp(t)
		if pre > 0 {
			first := firstMigrations(t, fsys, pre)
			if e1, e2 := migrateEach(ctx, got, "ns", first), migrateEach(ctx, want, "ns", first); e1 != nil || e2 != nil {
				t.Fatalf("set-up: %v, %v", e1, e2)
			}
		}
		gotErr, wantErr := Migrate(ctx, got, "ns", fsys), migrateEach(ctx, want, "ns", fsys)
		if errText(gotErr) != errText(wantErr) {
			t.Errorf("error %q, want %q", errText(gotErr), errText(wantErr))
		}
		if g, w := dump(t, got), dump(t, want); g != w {
			t.Errorf("got:\n%s\nwant:\n%s", g, w)
		}
	})
}
