package sqlite

import (
	"context"
	"database/sql"
	"fmt"
	"io/fs"
	"os"
	"path/filepath"
	"slices"
	"strings"
	"testing"
	"testing/fstest"

	"github.com/paige-dev/paige/internal/testenv"
)

// realMigrations are the migration directories of Paige's SQLite
// databases, read from the source tree (this package imports none of
// their owners).
var realMigrations = map[string]string{
	"coach":  "../coach/store/migrations",
	"ideate": "../ideate/store/migrations/sqlite",
	"learn":  "../learn/learndb/migrations",
	"memory": "../memory/migrations",
}

// openTemp opens a new database in a temporary directory.
func openTemp(tb testing.TB) *sql.DB {
	tb.Helper()
	db, err := Open(context.Background(), filepath.Join(tb.TempDir(), "t.db"))
	if err != nil {
		tb.Fatal(err)
	}
	tb.Cleanup(func() { db.Close() })
	return db
}

// dump is everything a migration can change, as text: the schema, every
// table's rows (sorted), and the recorded migrations without their times.
func dump(tb testing.TB, db *sql.DB) string {
	tb.Helper()
	var b strings.Builder
	var userVersion, appID int
	if err := db.QueryRow(`PRAGMA user_version`).Scan(&userVersion); err != nil {
		tb.Fatal(err)
	}
	if err := db.QueryRow(`PRAGMA application_id`).Scan(&appID); err != nil {
		tb.Fatal(err)
	}
	fmt.Fprintf(&b, "user_version %d, application_id %d\n", userVersion, appID)
	rows, err := db.Query(`SELECT type, name, tbl_name, coalesce(sql, '') FROM sqlite_master ORDER BY type, name`)
	if err != nil {
		tb.Fatal(err)
	}
	var tables []string
	for rows.Next() {
		var typ, name, tbl, text string
		if err := rows.Scan(&typ, &name, &tbl, &text); err != nil {
			tb.Fatal(err)
		}
		fmt.Fprintf(&b, "%s %s on %s: %s\n", typ, name, tbl, text)
		if typ == "table" {
			tables = append(tables, name)
		}
	}
	if err := rows.Close(); err != nil {
		tb.Fatal(err)
	}
	for _, t := range tables {
		q := fmt.Sprintf(`SELECT * FROM "%s"`, t)
		if t == "schema_migrations" {
			q = `SELECT namespace, version, name FROM schema_migrations`
		}
		fmt.Fprintf(&b, "rows of %s:\n%s", t, tableRows(tb, db, q))
	}
	return b.String()
}

// tableRows returns the rows q selects, one line each, sorted.
func tableRows(tb testing.TB, db *sql.DB, q string) string {
	tb.Helper()
	rows, err := db.Query(q)
	if err != nil {
		tb.Fatal(err)
	}
	defer rows.Close()
	cols, err := rows.Columns()
	if err != nil {
		tb.Fatal(err)
	}
	var lines []string
	for rows.Next() {
		vals := make([]any, len(cols))
		ptrs := make([]any, len(cols))
		for i := range vals {
			ptrs[i] = &vals[i]
		}
		if err := rows.Scan(ptrs...); err != nil {
			tb.Fatal(err)
		}
		lines = append(lines, fmt.Sprintf("  %#v\n", vals))
	}
	if err := rows.Err(); err != nil {
		tb.Fatal(err)
	}
	slices.Sort(lines)
	return strings.Join(lines, "")
}

// errText is err's message, or "" for nil.
func errText(err error) string {
	if err == nil {
		return ""
	}
	return err.Error()
}

// firstMigrations is fsys with only its first k migrations (in version order).
func firstMigrations(tb testing.TB, fsys fs.FS, k int) fstest.MapFS {
	tb.Helper()
	migs, err := list(fsys)
	if err != nil {
		tb.Fatal(err)
	}
	out := fstest.MapFS{}
	for _, m := range migs[:k] {
		body, err := fs.ReadFile(fsys, m.name)
		if err != nil {
			tb.Fatal(err)
		}
		out[m.name] = &fstest.MapFile{Data: body}
	}
	return out
}

// TestMigrateRealSetsAtOnce applies each of Paige's migration sets to a
// new database in one transaction and checks the result against applying
// them one transaction each: same schema, rows and recorded versions.
func TestMigrateRealSetsAtOnce(t *testing.T) {
	ctx := context.Background()
	for ns, dir := range realMigrations {
		t.Run(ns, func(t *testing.T) {
			fsys := os.DirFS(dir)
			migs, err := list(fsys)
			if err != nil || len(migs) == 0 {
				t.Fatalf("migrations in %s: %d, %v", dir, len(migs), err)
			}
			atOnce, each := openTemp(t), openTemp(t)
			if !migrateAtOnce(ctx, atOnce, ns, fsys, migs) {
				t.Fatal("a new database was not migrated in one transaction")
			}
			if err := migrateEach(ctx, each, ns, fsys); err != nil {
				t.Fatal(err)
			}
			want := dump(t, each)
			if got := dump(t, atOnce); got != want {
				t.Fatalf("one transaction:\n%s\none per migration:\n%s", got, want)
			}
			if err := Migrate(ctx, atOnce, ns, fsys); err != nil { // up to date: nothing to do
				t.Fatal(err)
			}
			if got := dump(t, atOnce); got != want {
				t.Fatalf("migrated again:\n%s\nwant:\n%s", got, want)
			}
		})
	}
}

// TestMigratePartlyMigrated starts from a database with the first k of
// the coach's migrations applied (as an older Paige left it): the rest are
// applied one transaction each, as before, and the result is the same.
func TestMigratePartlyMigrated(t *testing.T) {
	ctx := context.Background()
	fsys := os.DirFS(realMigrations["coach"])
	migs, err := list(fsys)
	if err != nil {
		t.Fatal(err)
	}
	full := openTemp(t)
	if err := migrateEach(ctx, full, "coach", fsys); err != nil {
		t.Fatal(err)
	}
	want := dump(t, full)
	for k := 1; k < len(migs); k++ {
		t.Run(fmt.Sprint(k), func(t *testing.T) {
			db := openTemp(t)
			if err := migrateEach(ctx, db, "coach", firstMigrations(t, fsys, k)); err != nil {
				t.Fatal(err)
			}
			before := dump(t, db)
			if migrateAtOnce(ctx, db, "coach", fsys, migs) {
				t.Fatal("a database migrated in part was migrated in one transaction")
			}
			if got := dump(t, db); got != before {
				t.Fatalf("the declined transaction changed the database:\n%s\nwas:\n%s", got, before)
			}
			if err := Migrate(ctx, db, "coach", fsys); err != nil {
				t.Fatal(err)
			}
			if got := dump(t, db); got != want {
				t.Fatalf("got:\n%s\nwant:\n%s", got, want)
			}
		})
	}
}

// TestMigrateAtOnceSameFailures: a set that fails on a new database leaves
// it as applying one migration per transaction does (the ones before the
// failure applied and recorded) with the same error.
func TestMigrateAtOnceSameFailures(t *testing.T) {
	tests := map[string]fstest.MapFS{
		"syntax error": {
			"001_a.sql": {Data: []byte("CREATE TABLE a (id INTEGER PRIMARY KEY);")},
			"002_b.sql": {Data: []byte("CREAT TABLE b (id INTEGER);")},
			"003_c.sql": {Data: []byte("CREATE TABLE c (id INTEGER);")},
		},
		"table exists": {
			"001_a.sql": {Data: []byte("CREATE TABLE a (id INTEGER PRIMARY KEY);")},
			"002_a.sql": {Data: []byte("CREATE TABLE a (id INTEGER PRIMARY KEY);")},
		},
		"deferred foreign key mended later": {
			"001_p.sql": {Data: []byte(`CREATE TABLE p (id INTEGER PRIMARY KEY);
				CREATE TABLE c (id INTEGER PRIMARY KEY, p INTEGER REFERENCES p (id) DEFERRABLE INITIALLY DEFERRED);`)},
			"002_c.sql": {Data: []byte("INSERT INTO c (p) VALUES (7);")},
			"003_p.sql": {Data: []byte("INSERT INTO p (id) VALUES (7);")},
		},
		"immediate foreign key": {
			"001_p.sql": {Data: []byte(`CREATE TABLE p (id INTEGER PRIMARY KEY);
				CREATE TABLE c (id INTEGER PRIMARY KEY, p INTEGER REFERENCES p (id));`)},
			"002_c.sql": {Data: []byte("INSERT INTO c (p) VALUES (7);")},
		},
		"not in a transaction": {
			"001_a.sql": {Data: []byte("CREATE TABLE a (id INTEGER PRIMARY KEY);")},
			"002_v.sql": {Data: []byte("VACUUM;")},
		},
		"bad name": {
			"001_a.sql": {Data: []byte("CREATE TABLE a (id INTEGER PRIMARY KEY);")},
			"b.sql":     {Data: []byte("CREATE TABLE b (id INTEGER);")},
		},
	}
	for name, fsys := range tests {
		t.Run(name, func(t *testing.T) {
			ctx := context.Background()
			got, want := openTemp(t), openTemp(t)
			gotErr, wantErr := Migrate(ctx, got, "ns", fsys), migrateEach(ctx, want, "ns", fsys)
			if wantErr == nil {
				t.Fatal("the case does not fail")
			}
			if errText(gotErr) != errText(wantErr) {
				t.Errorf("error %q, want %q", errText(gotErr), errText(wantErr))
			}
			if g, w := dump(t, got), dump(t, want); g != w {
				t.Errorf("got:\n%s\nwant:\n%s", g, w)
			}
		})
	}
}

// TestMigrateSharedFile: a namespace new to a file that already holds
// another's migrations is migrated in one transaction; the other's rows
// stay.
func TestMigrateSharedFile(t *testing.T) {
	ctx := context.Background()
	db := openTemp(t)
	a := fstest.MapFS{"001_a.sql": {Data: []byte("CREATE TABLE a (id INTEGER PRIMARY KEY);")}}
	b := fstest.MapFS{"001_b.sql": {Data: []byte("CREATE TABLE b (id INTEGER PRIMARY KEY);")}}
	if err := Migrate(ctx, db, "a", a); err != nil {
		t.Fatal(err)
	}
	migs, _ := list(b)
	if !migrateAtOnce(ctx, db, "b", b, migs) {
		t.Fatal("a new namespace was not migrated in one transaction")
	}
	want := `  []interface {}{"a", 1, "001_a.sql"}
  []interface {}{"b", 1, "001_b.sql"}
`
	if got := tableRows(t, db, `SELECT namespace, version, name FROM schema_migrations`); got != want {
		t.Errorf("recorded:\n%s", got)
	}
}

// BenchmarkMigrateNew opens a new database and applies the coach's
// migrations, as `paige serve` does on a fresh DATA_DIR: in one
// transaction (what Migrate does) and one transaction per migration;
// cpu-ns/op is the process's CPU per database, opening and closing it
// included (the fsyncs of creating it are waits, not CPU).
func BenchmarkMigrateNew(b *testing.B) {
	ctx := context.Background()
	fsys := os.DirFS(realMigrations["coach"])
	for _, bm := range []struct {
		name    string
		migrate func(context.Context, *sql.DB, string, fs.FS) error
	}{{"one-transaction", Migrate}, {"per-migration", migrateEach}} {
		b.Run(bm.name, func(b *testing.B) {
			dir := b.TempDir()
			cpu0 := testenv.CPUTime()
			for i := range b.N {
				db, err := Open(ctx, filepath.Join(dir, fmt.Sprintf("%d.db", i)))
				if err != nil {
					b.Fatal(err)
				}
				if err := bm.migrate(ctx, db, "coach", fsys); err != nil {
					b.Fatal(err)
				}
				db.Close()
			}
			b.ReportMetric(float64(testenv.CPUTime()-cpu0)/float64(b.N), "cpu-ns/op")
		})
	}
}
