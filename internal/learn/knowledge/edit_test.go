package knowledge

import (
	"errors"
	"strings"
	"testing"

	"github.com/paige-dev/paige/internal/learn"
)

func TestUpdateEditsOneEntryAndKeepsHistory(t *testing.T) {
	s := openStore(t)
	other := sampleEntry
	other.ID, other.Content = "test-2", "Tests run with go test ./..."
	mustAppend(t, s, sampleEntry, other)
	got, err := s.Update("test-1", func(e learn.Entry) (learn.Entry, error) {
		e.Content = "User prefers bun over npm; token sk-ant-api03-" + "abcdefghijklmnopqrstuvwxyz0123456789ABCDEFGH"
		e.ID = "hijack" // ignored: an edit keeps the id
		return e, nil
	})
	if err != nil {
		t.Fatal(err)
	}
	if got.ID != "test-1" || got.Content == sampleEntry.Content {
		t.Fatalf("updated = %+v", got)
	}
	es := entries(t, s)
	if len(es) != 2 || es[0].ID != "test-1" || es[0].Content != got.Content || es[1].Content != other.Content {
		t.Fatalf("entries after edit = %+v", es)
	}
	if containsSecret(es[0].Content) {
		t.Errorf("edit stored a secret: %q", es[0].Content)
	}
}

func containsSecret(s string) bool {
	return strings.Contains(s, "abcdefghijklmnopqrstuvwxyz0123456789")
}

func TestSetPinnedAndRefusals(t *testing.T) {
	s := openStore(t)
	mustAppend(t, s, sampleEntry)
	if e, err := s.SetPinned("test-1", true); err != nil || !e.Pinned {
		t.Fatalf("pin: %+v, %v", e, err)
	}
	if es := entries(t, s); !es[0].Pinned {
		t.Fatalf("pin not stored: %+v", es[0])
	}
	if e, err := s.SetPinned("test-1", false); err != nil || e.Pinned {
		t.Fatalf("unpin: %+v, %v", e, err)
	}
	if _, err := s.Update("test-1", func(e learn.Entry) (learn.Entry, error) { e.Content = "  "; return e, nil }); !errors.Is(err, ErrInvalid) {
		t.Errorf("blank edit: err = %v, want ErrInvalid", err)
	}
	if _, err := s.SetPinned("nope", true); !errors.Is(err, ErrNotFound) {
		t.Errorf("unknown id: err = %v, want ErrNotFound", err)
	}
	if _, err := s.Forget("test-1"); err != nil {
		t.Fatal(err)
	}
	if _, err := s.SetPinned("test-1", true); !errors.Is(err, ErrInactive) {
		t.Errorf("pin a forgotten entry: err = %v, want ErrInactive", err)
	}
	if es := entries(t, s); !es[0].Forgotten || es[0].Pinned {
		t.Errorf("forgotten entry changed: %+v", es[0])
	}
}
