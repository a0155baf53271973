package memory_test

import (
	"context"
	"errors"
	"path/filepath"
	"strings"
	"testing"

	"github.com/paige-dev/paige/internal/embedding"
	"github.com/paige-dev/paige/internal/memory"
)

func TestEmbeddedEditor(t *testing.T) {
	ctx := context.Background()
	path := filepath.Join(t.TempDir(), "memory.db")
	s := openEmbedded(t, path, embedding.NewLexical(0), nil)
	add(t, s, "s1", "/repos/app/.git", memory.Memory{Content: "OAuth callback race condition"}, memory.Memory{Content: "CSS grid layout"})
	add(t, s, "s2", "/repos/other/.git", memory.Memory{Content: "Postgres index on user_id"})

	all, err := s.ListMemories(ctx, "")
	if err != nil || len(all) != 3 {
		t.Fatalf("list all: %v, %v", all, err)
	}
	mine, err := s.ListMemories(ctx, "/repos/app/.git")
	if err != nil || len(mine) != 2 {
		t.Fatalf("list one project: %v, %v", mine, err)
	}

	got, err := s.UpdateMemory(ctx, "mem_s1_1", "Tailwind flex layout, key sk-ant-api03-abcdefghijklmnopqrstuvwxyz0123456789ABCDEFGH")
	if err != nil || got.ID != "mem_s1_1" || got.Metadata.Project != "/repos/app/.git" {
		t.Fatalf("update: %+v, %v", got, err)
	}
	if strings.Contains(got.Content, "abcdefghijklmnopqrstuvwxyz") {
		t.Errorf("update stored a secret: %q", got.Content)
	}
	rs := query(t, s, memory.Query{Text: "tailwind flex"})
	if len(rs) == 0 || rs[0].ID != "mem_s1_1" || !strings.HasPrefix(rs[0].Content, "Tailwind flex") {
		t.Fatalf("query after edit: %+v", rs)
	}
	if _, err := s.UpdateMemory(ctx, "mem_s1_1", "   "); !errors.Is(err, memory.ErrEmptyContent) {
		t.Errorf("blank update: %v", err)
	}
	if _, err := s.UpdateMemory(ctx, "mem_nope_0", "x"); !errors.Is(err, memory.ErrNoMemory) {
		t.Errorf("update unknown: %v", err)
	}

	if err := s.DeleteMemory(ctx, "mem_s1_0"); err != nil {
		t.Fatal(err)
	}
	if err := s.DeleteMemory(ctx, "mem_s1_0"); !errors.Is(err, memory.ErrNoMemory) {
		t.Errorf("delete twice: %v", err)
	}
	for _, r := range query(t, s, memory.Query{Text: "OAuth callback race condition"}) {
		if r.ID == "mem_s1_0" {
			t.Errorf("deleted memory still recalled: %+v", r)
		}
	}

	n, err := s.SetProjects(ctx, func(m memory.Metadata) (string, bool) {
		return "/repos/new/.git", m.SessionID == "s2"
	})
	if err != nil || n != 1 {
		t.Fatalf("set projects: %d, %v", n, err)
	}
	if rs := query(t, s, memory.Query{Text: "postgres index", Project: "/repos/new/.git"}); len(rs) != 1 {
		t.Errorf("query the new project: %+v", rs)
	}
	s.Close()
	s2 := openEmbedded(t, path, embedding.NewLexical(0), nil)
	left, _ := s2.ListMemories(ctx, "")
	if len(left) != 2 {
		t.Errorf("after reopen: %+v", left)
	}
	add(t, s2, "s1", "/repos/app/.git", memory.Memory{Content: "new one"})
	if left, _ = s2.ListMemories(ctx, "/repos/app/.git"); len(left) != 2 || left[0].ID == left[1].ID {
		t.Errorf("numbering after an edit: %+v", left)
	}
}
