// Package knowledgetest gives tests a knowledge store of their own.
package knowledgetest

import (
	"testing"

	"github.com/paige-dev/paige/internal/learn/knowledge"
)

// Open opens a new, empty knowledge store in a temporary directory of tb;
// an error fails tb.
func Open(tb testing.TB) *knowledge.Store {
	tb.Helper()
	s, err := knowledge.Open(tb.TempDir())
	if err != nil {
		tb.Fatal(err)
	}
	return s
}
