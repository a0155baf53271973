package workspace

import (
	"errors"
	"fmt"
	"io/fs"
	"sort"
	"sync"
	"time"
	"unicode/utf8"

	"github.com/aymanbagabas/go-udiff"
)

// Cursor is a position in a buffer as the editor reports it.
type Cursor struct {
	Line   int `json:"line"`
	Column int `json:"column"`
}

// Buffer is one entry of the buffer cache (FR-027, D19); its JSON form is the
// spec's BufferEntry plus the normalised path and the character count.
type Buffer struct {
	Path           string    `json:"path"`
	Content        string    `json:"content"`
	CursorPosition Cursor    `json:"cursorPosition"`
	Dirty          bool      `json:"dirty"`
	LastUpdated    time.Time `json:"lastUpdated"`
	CharCount      int       `json:"charCount"`
}

// BufferChange reports what [Workspace.UpdateBuffer] did, for the action
// log's buffer tracking.
type BufferChange struct {
	Path      string // normalised project-relative path
	CharCount int    // characters (Unicode code points) in the new content
	// PrevCharCount is the character count before this update: the previous
	// buffer's, or for the first update of a file the file on disk's, or -1
	// when neither exists (a new file).
	PrevCharCount int
}

// maxAliases bounds the cache of caller spellings → normalised paths.
const maxAliases = 4096

type bufferCache struct {
	mu      sync.RWMutex
	entries map[string]Buffer // by normalised path
	alias   map[string]string // caller's spelling → normalised path, only for guarded paths
}

func (c *bufferCache) init() {
	c.entries = make(map[string]Buffer)
	c.alias = make(map[string]string)
}

// known returns the normalised path for a spelling already resolved by the guard.
func (c *bufferCache) known(p string) (string, bool) {
	c.mu.RLock()
	rel, ok := c.alias[p]
	c.mu.RUnlock()
	return rel, ok
}

func (c *bufferCache) remember(p, rel string) {
	c.mu.Lock()
	if len(c.alias) >= maxAliases {
		clear(c.alias)
	}
	c.alias[p] = rel
	c.mu.Unlock()
}

func (c *bufferCache) saved(rel, content string, now time.Time) {
	c.mu.Lock()
	b := c.entries[rel]
	b.Path, b.Content, b.Dirty, b.LastUpdated = rel, content, false, now
	b.CharCount = runeCount(content)
	c.entries[rel] = b
	c.mu.Unlock()
}

// key normalises p through the alias cache, then the pure normaliser, then
// the full guard (file-system access) as a last resort. Buffer reads and
// updates touch no file, so a spelling once accepted by the guard is
// trusted for them; operations that read the disk always re-resolve.
func (w *Workspace) key(p string) (string, error) {
	if rel, ok := w.bufs.known(p); ok {
		return rel, nil
	}
	lex, err := w.guard.Normalize(p)
	if err != nil {
		return "", err
	}
	if rel, ok := w.bufs.known(lex); ok {
		w.bufs.remember(p, rel)
		return rel, nil
	}
	rp, err := w.guard.Resolve(lex)
	if err != nil {
		return "", err
	}
	w.bufs.remember(p, rp.Rel)
	w.bufs.remember(lex, rp.Rel)
	return rp.Rel, nil
}

// UpdateBuffer records the editor's current content and cursor for a file
// (buffer:update, scenario 3.3): dirty true, lastUpdated now. Binary files
// (by name, by content, or on disk) are refused with [ErrBinary]. The
// hot path (a file already buffered) does no file-system access.
func (w *Workspace) UpdateBuffer(p, content string, cursor Cursor) (BufferChange, error) {
	rel, err := w.key(p)
	if err != nil {
		return BufferChange{}, err
	}
	if looksBinaryString(content) {
		return BufferChange{Path: rel}, fmt.Errorf("%q: %w", p, ErrBinary)
	}
	ch := BufferChange{Path: rel, CharCount: runeCount(content), PrevCharCount: -1}
	w.bufs.mu.RLock()
	prev, had := w.bufs.entries[rel]
	w.bufs.mu.RUnlock()
	if had {
		ch.PrevCharCount = prev.CharCount
	} else {
		if ch.PrevCharCount, err = w.diskChars(rel); err != nil {
			return BufferChange{Path: rel}, err
		}
	}
	b := Buffer{Path: rel, Content: content, CursorPosition: cursor, Dirty: true, LastUpdated: w.now(), CharCount: ch.CharCount}
	w.bufs.mu.Lock()
	w.bufs.entries[rel] = b
	w.bufs.mu.Unlock()
	return ch, nil
}

// runeCount is utf8.RuneCountInString, sixteen bytes at a time while the
// text is ASCII (every buffer update counts its whole content: issue 15).
func runeCount(s string) int {
	i := 0
	for ; i+16 <= len(s); i += 16 {
		t := s[i : i+16]
		// The compiler merges each line's loads into one 64-bit load.
		w := uint64(t[0]) | uint64(t[1])<<8 | uint64(t[2])<<16 | uint64(t[3])<<24 |
			uint64(t[4])<<32 | uint64(t[5])<<40 | uint64(t[6])<<48 | uint64(t[7])<<56
		v := uint64(t[8]) | uint64(t[9])<<8 | uint64(t[10])<<16 | uint64(t[11])<<24 |
			uint64(t[12])<<32 | uint64(t[13])<<40 | uint64(t[14])<<48 | uint64(t[15])<<56
		if (w|v)&0x8080808080808080 != 0 {
			break
		}
	}
	return i + utf8.RuneCountInString(s[i:])
}

// diskChars counts the characters of the file on disk, -1 when it does not
// exist; a binary file is [ErrBinary].
func (w *Workspace) diskChars(rel string) (int, error) {
	if rel == "." {
		return -1, fmt.Errorf("%w: the project directory has no buffer", ErrInvalidPath)
	}
	if IsBinaryName(rel) {
		return -1, fmt.Errorf("%q: %w", rel, ErrBinary)
	}
	rp, err := w.guard.Resolve(rel)
	if err != nil {
		return -1, err
	}
	data, _, err := w.read(rp)
	switch {
	case errors.Is(err, errIsDir):
		return -1, fmt.Errorf("%q: %w: a directory has no buffer", rel, ErrInvalidPath)
	case err != nil:
		return -1, nil // missing or unreadable: no baseline
	}
	if LooksBinary(data) {
		return -1, fmt.Errorf("%q: %w", rel, ErrBinary)
	}
	return utf8.RuneCount(data), nil
}

// Buffer returns the cached buffer of a file (scenario 3.4); ok is false
// when the file has no buffer. The error is non-nil only for a path the
// guard rejects.
func (w *Workspace) Buffer(p string) (b Buffer, ok bool, err error) {
	rel, err := w.key(p)
	if err != nil {
		return Buffer{}, false, err
	}
	w.bufs.mu.RLock()
	b, ok = w.bufs.entries[rel]
	w.bufs.mu.RUnlock()
	return b, ok, nil
}

// Buffers returns every cached buffer ordered by path.
func (w *Workspace) Buffers() []Buffer {
	w.bufs.mu.RLock()
	out := make([]Buffer, 0, len(w.bufs.entries))
	for _, b := range w.bufs.entries {
		out = append(out, b)
	}
	w.bufs.mu.RUnlock()
	sort.Slice(out, func(i, j int) bool { return out[i].Path < out[j].Path })
	return out
}

// DropBuffer forgets the buffer of a file (for example when the editor
// closes it without saving). Dropping a file without a buffer is a no-op.
func (w *Workspace) DropBuffer(p string) error {
	rel, err := w.key(p)
	if err != nil {
		return err
	}
	w.bufs.mu.Lock()
	delete(w.bufs.entries, rel)
	w.bufs.mu.Unlock()
	return nil
}

// FileDiff is one file's diff; the JSON form is an item of paige_get_diff's
// `diffs` array.
type FileDiff struct {
	Path string `json:"path"`
	Diff string `json:"diff"`
}

// Diff returns the unified diff from the file on disk to its buffer
// (scenario 3.5, FR-031): "" when the buffer is clean or missing. A file
// deleted on disk while buffered diffs against empty content (EC-13).
func (w *Workspace) Diff(p string) (string, error) {
	rp, err := w.guard.Resolve(p)
	if err != nil {
		return "", err
	}
	w.bufs.mu.RLock()
	b, ok := w.bufs.entries[rp.Rel]
	w.bufs.mu.RUnlock()
	if !ok || !b.Dirty {
		return "", nil
	}
	return w.diff(rp, b.Content)
}

func (w *Workspace) diff(rp Path, content string) (string, error) {
	data, _, err := w.read(rp)
	switch {
	case errors.Is(err, fs.ErrNotExist):
		data = nil
	case err != nil:
		return "", err
	case LooksBinary(data):
		return "", nil
	}
	return udiff.Unified("a/"+rp.Rel, "b/"+rp.Rel, string(data), content), nil
}

// Diffs returns the diffs of every dirty buffer that differs from disk,
// ordered by path; an empty (non-nil) slice when there is none (EC-34).
func (w *Workspace) Diffs() ([]FileDiff, error) {
	out := []FileDiff{}
	for _, b := range w.Buffers() {
		if !b.Dirty {
			continue
		}
		rp, err := w.guard.Resolve(b.Path)
		if err != nil {
			continue // the path changed under us (e.g. became an escaping symlink): skip it
		}
		d, err := w.diff(rp, b.Content)
		if err != nil {
			return out, err
		}
		if d != "" {
			out = append(out, FileDiff{Path: b.Path, Diff: d})
		}
	}
	return out, nil
}
