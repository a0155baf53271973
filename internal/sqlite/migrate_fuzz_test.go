package sqlite

import (
	"context"
	"fmt"
	"strings"
	"testing"
	"testing/fstest"
)

// fuzzStatements are what a fuzzed migration is made of: each takes two
// small numbers (tables, columns), and some fail or defer a check.
var fuzzStatements = []string{
	"CREATE TABLE t%[1]d (id INTEGER PRIMARY KEY, v TEXT);",
	"CREATE TABLE IF NOT EXISTS t%[1]d (id INTEGER PRIMARY KEY, v TEXT);",
	"CREATE INDEX i%[1]d_%[2]d ON t%[1]d (v);",
	"INSERT INTO t%[1]d (v) VALUES ('v%[2]d');",
	"DROP TABLE t%[1]d;",
	"DROP TABLE IF EXISTS t%[1]d;",
	"ALTER TABLE t%[1]d ADD COLUMN c%[2]d TEXT;",
	"ALTER TABLE t%[1]d RENAME TO t%[2]d;",
	"CREAT TABLE t%[1]d (id INTEGER);",
	"CREATE TABLE k%[1]d (id INTEGER PRIMARY KEY, p INTEGER REFERENCES t%[2]d (id) DEFERRABLE INITIALLY DEFERRED);",
	"CREATE TABLE j%[1]d (id INTEGER PRIMARY KEY, p INTEGER REFERENCES t%[2]d (id) ON DELETE CASCADE);",
	"INSERT INTO k%[1]d (p) VALUES (%[2]d);",
	"INSERT INTO j%[1]d (p) VALUES (%[2]d);",
	"INSERT INTO t%[1]d (id, v) VALUES (%[2]d, 'x');",
	"DELETE FROM t%[1]d;",
	"DELETE FROM k%[1]d;",
	"UPDATE t%[1]d SET v = 'u%[2]d';",
	"CREATE TABLE s%[1]d (id INTEGER PRIMARY KEY AUTOINCREMENT, v TEXT); INSERT INTO s%[1]d (v) VALUES ('a');",
	"CREATE VIEW w%[1]d AS SELECT * FROM t%[2]d;",
	"CREATE TRIGGER g%[1]d AFTER INSERT ON t%[1]d BEGIN INSERT INTO t%[2]d (v) VALUES ('g'); END;",
	"SELECT 1;",
	"PRAGMA user_version = %[1]d%[2]d;",
	"",
}

// fuzzMigrations decodes data into a migration set: the first byte is how
// many of them a previous run applied, then for each statement a byte
// (which one; 0xff ends the migration) and one for its two numbers.
func fuzzMigrations(data []byte) (fstest.MapFS, int) {
	fsys := fstest.MapFS{}
	if len(data) == 0 {
		return fsys, 0
	}
	pre := int(data[0])
	var body strings.Builder
	n := 0
	flush := func() {
		n++
		fsys[fmt.Sprintf("%03d_m.sql", n)] = &fstest.MapFile{Data: []byte(body.String())}
		body.Reset()
	}
	for i := 1; i+1 < len(data) && n < 8; i += 2 {
		if data[i] == 0xff {
			flush()
			continue
		}
		st := fuzzStatements[int(data[i])%len(fuzzStatements)]
		fmt.Fprintf(&body, st+"\n", data[i+1]%3, data[i+1]/3%3)
	}
	if body.Len() > 0 || n == 0 {
		flush()
	}
	return fsys, pre % (n + 1)
}

// FuzzMigrate checks Migrate against applying one migration per
// transaction (migrateEach, the path it stands in for), on a new database
// and on one a previous run migrated in part: same error, same schema,
// rows and recorded versions.
func FuzzMigrate(f *testing.F) {
	f.Add([]byte{0, 0, 0, 0xff, 0, 3, 0, 2, 0xff, 0, 6})
	f.Add([]byte{1, 0, 0, 0xff, 0, 3, 0, 2, 0xff, 0, 6})
	f.Add([]byte{0, 0, 0, 9, 0, 0xff, 0, 11, 0, 0xff, 0, 13, 0})
	f.Add([]byte{0, 0, 0, 10, 0, 0xff, 0, 13, 0, 12, 0, 0xff, 0, 4, 0})
	f.Add([]byte{0, 0, 0, 0xff, 0, 8, 0, 0xff, 0, 0, 1})
	f.Add([]byte{2, 17, 0, 0xff, 0, 18, 1, 0xff, 0, 0, 1, 19, 0, 3, 0})
	ctx := context.Background()
	f.Fuzz(func(t *testing.T, data []byte) {
		fsys, pre := fuzzMigrations(data)
		got, want := openTemp(t), openTemp(t)
		if pre > 0 {
			first := firstMigrations(t, fsys, pre)
			e1, e2 := migrateEach(ctx, got, "ns", first), migrateEach(ctx, want, "ns", first)
			if errText(e1) != errText(e2) {
				t.Fatalf("the same set-up failed differently: %v, %v", e1, e2)
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
