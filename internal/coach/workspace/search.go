package workspace

import (
	"bufio"
	"bytes"
	"errors"
	"fmt"
	"io/fs"
	"strings"
	"unicode/utf8"
)

// Search bounds: a search reads at most SearchMaxFiles files and returns at
// most SearchMaxHits lines, each preview cut to SearchPreviewRunes runes.
// Files over the workspace's read limit are skipped.
const (
	SearchMaxFiles     = 5000
	SearchMaxHits      = 200
	SearchPreviewRunes = 200
	SearchMaxQuery     = 256
)

// SearchHit is one matching line: its file, 1-based line and column, and
// the line's text (cut to SearchPreviewRunes runes).
type SearchHit struct {
	Path    string `json:"path"`
	Line    int    `json:"line"`
	Column  int    `json:"column"`
	Preview string `json:"preview"`
}

// SearchResult is what [Workspace.Search] found; Truncated is set when a
// bound stopped it before the whole project was searched.
type SearchResult struct {
	Hits      []SearchHit `json:"hits"`
	Files     int         `json:"files"`
	Truncated bool        `json:"truncated"`
}

// Search finds the lines of the project's text files that contain query,
// case-insensitively (plain text, not a pattern). It walks the project
// through its os.Root, leaving out what the tree leaves out (excluded
// directories such as node_modules and .git; symlinks are not followed),
// binary files and files over the read limit, in the tree's order, and
// stops at the bounds above.
func (w *Workspace) Search(query string) (SearchResult, error) {
	res := SearchResult{Hits: []SearchHit{}}
	if strings.TrimSpace(query) == "" {
		return res, fmt.Errorf("%w: empty search", ErrInvalidPath)
	}
	if len(query) > SearchMaxQuery {
		return res, fmt.Errorf("%w: the search is over %d bytes", ErrInvalidPath, SearchMaxQuery)
	}
	needle := []byte(strings.ToLower(query))
	errStop := errors.New("stop")
	err := fs.WalkDir(w.guard.fs.FS(), ".", func(p string, d fs.DirEntry, err error) error {
		if err != nil {
			return nil // an unreadable entry is left out, as in the tree
		}
		if d.IsDir() {
			if p != "." && Excluded(d.Name()) {
				return fs.SkipDir
			}
			return nil
		}
		if !d.Type().IsRegular() || IsBinaryName(p) {
			return nil
		}
		if res.Files >= SearchMaxFiles {
			res.Truncated = true
			return errStop
		}
		res.Files++
		data, _, err := w.read(Path{Rel: p, Abs: p})
		if err != nil || LooksBinary(data) {
			return nil
		}
		if !searchFile(&res, p, data, needle) {
			res.Truncated = true
			return errStop
		}
		return nil
	})
	if err != nil && !errors.Is(err, errStop) {
		return res, err
	}
	return res, nil
}

// searchFile adds data's matching lines to res; false once res is full.
func searchFile(res *SearchResult, path string, data, needle []byte) bool {
	if !bytes.Contains(bytes.ToLower(data), needle) {
		return true
	}
	sc := bufio.NewScanner(bytes.NewReader(data))
	sc.Buffer(make([]byte, 0, 64*1024), len(data)+1)
	for n := 1; sc.Scan(); n++ {
		line := sc.Bytes()
		lower := bytes.ToLower(line)
		i := bytes.Index(lower, needle)
		if i < 0 {
			continue
		}
		if len(res.Hits) >= SearchMaxHits {
			return false
		}
		col := 1
		if len(lower) == len(line) { // lowering kept the byte offsets
			col = utf8.RuneCount(line[:i]) + 1
		}
		res.Hits = append(res.Hits, SearchHit{Path: path, Line: n, Column: col, Preview: preview(line)})
	}
	return true
}

func preview(line []byte) string {
	s := strings.TrimRight(string(line), "\r")
	if utf8.RuneCountInString(s) <= SearchPreviewRunes {
		return s
	}
	return string([]rune(s)[:SearchPreviewRunes]) + "…"
}
