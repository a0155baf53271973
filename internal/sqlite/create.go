package sqlite

import (
	"context"
	"crypto/rand"
	"database/sql"
	"encoding/hex"
	"errors"
	"fmt"
	"io/fs"
	"os"
	"path/filepath"
)

// CreateMigrated makes the database at path, with the migrations in fsys
// applied for namespace, when there is no file there yet; it reports
// whether it made it. [Open] and [Migrate] then find it complete and
// write nothing.
//
// Made in place, a new database costs six fsyncs before it can be used
// (switching to WAL goes through a rollback journal; the first write
// syncs the new WAL's header; each new file syncs the directory), and on
// a virtual machine they are most of the start's wait. Here it is made
// in a temporary file beside path without a sync per step
// (synchronous=OFF), then synced once, linked into place (never over a
// file another process made meanwhile) and the directory synced once:
// the database is on disk, whole, before anyone opens it, as after the
// in-place path. On any failure nothing is left behind, and the caller
// opens and migrates path as before.
func CreateMigrated(ctx context.Context, path, namespace string, fsys fs.FS) (bool, error) {
	if _, err := os.Lstat(path); !errors.Is(err, fs.ErrNotExist) {
		return false, nil // there is one (or it cannot be looked at): open it
	}
	dir := filepath.Dir(path)
	if err := os.MkdirAll(dir, 0o755); err != nil {
		return false, fmt.Errorf("create database directory: %w", err)
	}
	suffix := make([]byte, 8)
	if _, err := rand.Read(suffix); err != nil {
		return false, err
	}
	tmp := filepath.Join(dir, "."+filepath.Base(path)+".new-"+hex.EncodeToString(suffix))
	defer removeDatabaseFiles(tmp)
	if err := migrateUnsynced(ctx, tmp, namespace, fsys); err != nil {
		return false, err
	}
	if err := syncPath(tmp); err != nil {
		return false, err
	}
	if err := os.Link(tmp, path); err != nil {
		if errors.Is(err, fs.ErrExist) {
			return false, nil // another process made it meanwhile
		}
		return false, err
	}
	if err := os.Remove(tmp); err != nil {
		return true, err
	}
	return true, syncPath(dir)
}

// migrateUnsynced makes the database at path, migrated, with no fsync,
// and closes it: its WAL is checkpointed into it and removed. Its one
// connection is switched to WAL after synchronous=OFF (the driver would
// run a journal_mode pragma of the DSN first), so the switch, which
// writes the new file's first page through a rollback journal, syncs
// nothing either.
func migrateUnsynced(ctx context.Context, path, namespace string, fsys fs.FS) error {
	db, err := sql.Open("sqlite", dsn(path, "foreign_keys(1)", "synchronous(OFF)"))
	if err != nil {
		return err
	}
	db.SetMaxOpenConns(1)
	if _, err = db.ExecContext(ctx, "PRAGMA journal_mode=WAL"); err == nil {
		err = Migrate(ctx, db, namespace, fsys)
	}
	if cerr := db.Close(); err == nil {
		err = cerr
	}
	if err != nil {
		return err
	}
	for _, side := range []string{"-wal", "-journal"} {
		if _, err := os.Lstat(path + side); !errors.Is(err, fs.ErrNotExist) {
			return fmt.Errorf("new database %s: %s left after closing", path, side)
		}
	}
	return nil
}

// syncPath fsyncs the file or directory at path.
func syncPath(path string) error {
	f, err := os.Open(path)
	if err != nil {
		return err
	}
	err = f.Sync()
	if cerr := f.Close(); err == nil {
		err = cerr
	}
	return err
}

// removeDatabaseFiles removes the database at path and its side files,
// those that exist.
func removeDatabaseFiles(path string) {
	for _, side := range []string{"", "-wal", "-shm", "-journal"} {
		_ = os.Remove(path + side)
	}
}
