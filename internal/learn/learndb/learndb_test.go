package learndb

import (
	"context"
	"path/filepath"
	"testing"
)

func TestOpenMigratesTwice(t *testing.T) {
	path := filepath.Join(t.TempDir(), FileName)
	for range 2 {
		db, err := Open(context.Background(), path)
		if err != nil {
			t.Fatal(err)
		}
		for _, table := range []string{"preprompts", "sessions", "messages"} {
			var n int
			if err := db.QueryRow(`SELECT count(*) FROM sqlite_master WHERE type='table' AND name=?`, table).Scan(&n); err != nil || n != 1 {
				t.Errorf("table %s: %d, %v", table, n, err)
			}
		}
		db.Close()
	}
}
