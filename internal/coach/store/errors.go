package store

import (
	"fmt"
	"strings"
)

// isCorrupt reports whether a SQLite error means the file is damaged.
func isCorrupt(err error) bool {
	s := strings.ToLower(err.Error())
	return strings.Contains(s, "not a database") || strings.Contains(s, "malformed") || strings.Contains(s, "corrupt")
}

// insertErr turns constraint failures into the package's sentinel errors so
// callers can tell "parent missing" (EC-08) from "bad input" from I/O.
func insertErr(what, parent string, err error) error {
	if err == nil {
		return nil
	}
	msg := err.Error()
	switch {
	case strings.Contains(msg, "FOREIGN KEY constraint failed"):
		return fmt.Errorf("create %s: %s: %w", what, parent, ErrNotFound)
	case strings.Contains(msg, "CHECK constraint failed"), strings.Contains(msg, "NOT NULL constraint failed"),
		strings.Contains(msg, "UNIQUE constraint failed"):
		return fmt.Errorf("create %s: %w: %v", what, ErrInvalid, err)
	}
	return fmt.Errorf("create %s: %w", what, err)
}

// notFound builds the error for a missing row.
func notFound(what, id string) error {
	return fmt.Errorf("%s %q: %w", what, id, ErrNotFound)
}
