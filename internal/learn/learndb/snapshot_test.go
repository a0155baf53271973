package learndb

import (
	"io/fs"
	"testing"

	"github.com/paige-dev/paige/internal/sqlite"
)

// TestMigrationsEmbedSnapshot: the binary carries the schema snapshot, so
// a new database gets the schema at once (sqlite.SnapshotName).
func TestMigrationsEmbedSnapshot(t *testing.T) {
	if _, err := fs.Stat(migrations, "migrations/"+sqlite.SnapshotName); err != nil {
		t.Fatal(err)
	}
}
