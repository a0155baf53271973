// Package memoryviewtest fills, for tests, the real stores that
// memoryview shows and `paige memory` edits: a knowledge store, a seed
// holding proposals made by the learn → seed loop, and an embedded memory
// store. Each helper fails the test on any error.
package memoryviewtest

import (
	"context"
	"path/filepath"
	"testing"

	"github.com/paige-dev/paige/internal/embedding"
	"github.com/paige-dev/paige/internal/learn"
	"github.com/paige-dev/paige/internal/learn/knowledge"
	"github.com/paige-dev/paige/internal/learnseed"
	"github.com/paige-dev/paige/internal/memory"
)

// Knowledge opens the knowledge store in dir/knowledge (where DATA_DIR
// keeps it) and appends entries; it returns the store and the entries as
// stored, with their IDs.
func Knowledge(tb testing.TB, dir string, entries ...learn.Entry) (*knowledge.Store, []learn.Entry) {
	tb.Helper()
	ks, err := knowledge.Open(filepath.Join(dir, "knowledge"))
	if err != nil {
		tb.Fatal(err)
	}
	es, err := ks.Append(entries...)
	if err != nil {
		tb.Fatal(err)
	}
	return ks, es
}

// Propose runs the real learn → seed loop (regex method) over entries of
// ks for session: their proposals go into the seed at seedPath, a git
// repository, in one commit.
func Propose(tb testing.TB, ks *knowledge.Store, seedPath, session string, entries []learn.Entry) learnseed.Result {
	tb.Helper()
	res, err := learnseed.Run(entries, learnseed.Options{SeedPath: seedPath, StoreDir: ks.Dir(), SessionID: session, Method: "regex"})
	if err != nil {
		tb.Fatalf("learn → seed loop: %v", err)
	}
	return res
}

// Memories opens the embedded memory store in dir/memory.db (where
// DATA_DIR keeps it) with lexical embeddings and adds mems, from session
// in project. The store stays open until the test ends; closing it
// earlier, to let another process open the file, is fine.
func Memories(tb testing.TB, dir, session, project string, mems ...memory.Memory) *memory.Embedded {
	tb.Helper()
	ctx := context.Background()
	mem, err := memory.OpenEmbedded(ctx, filepath.Join(dir, "memory.db"), embedding.NewLexical(0), nil)
	if err != nil {
		tb.Fatal(err)
	}
	tb.Cleanup(func() { mem.Close() })
	if _, err := mem.AddMemories(ctx, session, project, mems); err != nil {
		tb.Fatal(err)
	}
	return mem
}
