package wsapi

import (
	"errors"
	"io/fs"
	"os"
	"path/filepath"
	"testing"
)

// TestFileOps: fs:create, fs:rename and fs:delete change the project on
// disk without a coaching session and are broadcast to every editor; a path
// outside the project is answered FILE_ERROR to the sender alone and
// changes nothing; fs:search replies to the sender only.
func TestFileOps(t *testing.T) {
	h := newHarness(t, Options{})
	a, b := h.dial(t), h.dial(t)
	disk := func(rel string) string { return filepath.Join(h.project, filepath.FromSlash(rel)) }

	a.send(TypeFSCreate, FSCreate{Path: "src/util.go"})
	var created FSCreate
	a.expect(TypeFSCreated, &created)
	b.expect(TypeFSCreated, nil)
	if created != (FSCreate{Path: "src/util.go", Type: "file"}) {
		t.Errorf("fs:created: got %+v", created)
	}
	if _, err := os.Stat(disk("src/util.go")); err != nil {
		t.Fatalf("created file: %v", err)
	}

	a.send(TypeFSRename, FSRename{From: "src/util.go", To: "lib/util.go"})
	var renamed FSRename
	a.expect(TypeFSRenamed, &renamed)
	b.expect(TypeFSRenamed, nil)
	if renamed != (FSRename{From: "src/util.go", To: "lib/util.go"}) {
		t.Errorf("fs:renamed: got %+v", renamed)
	}
	if _, err := os.Stat(disk("lib/util.go")); err != nil {
		t.Fatalf("renamed file: %v", err)
	}

	a.send(TypeFSCreate, FSCreate{Path: "../escape.go"})
	var e ConnectionError
	if a.expect(TypeConnectionError, &e); e.Code != CodeFileError || e.Context["path"] != "../escape.go" {
		t.Errorf("escape: got %+v", e)
	}
	if _, err := os.Stat(filepath.Join(filepath.Dir(h.project), "escape.go")); !errors.Is(err, fs.ErrNotExist) {
		t.Errorf("a file was created outside the project: %v", err)
	}

	a.send(TypeFSDelete, PathPayload{Path: "lib"})
	var deleted PathPayload
	a.expect(TypeFSDeleted, &deleted)
	b.expect(TypeFSDeleted, nil)
	if _, err := os.Stat(disk("lib")); deleted.Path != "lib" || !errors.Is(err, fs.ErrNotExist) {
		t.Errorf("fs:deleted %+v, lib on disk: %v", deleted, err)
	}

	b.send(TypeFSSearch, FSSearch{Query: "FUNC MAIN"})
	var res FSSearchResult
	b.expect(TypeFSSearchResult, &res)
	if res.Query != "FUNC MAIN" || len(res.Hits) != 1 || res.Hits[0].Path != "main.go" || res.Hits[0].Line != 3 || res.Truncated {
		t.Errorf("fs:search_result: got %+v", res)
	}
	a.send(TypeFSGetTree, Empty{}) // a got nothing from b's search: its next message is this reply
	a.expect(TypeFSTree, nil)
}
