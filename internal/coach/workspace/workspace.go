// Package workspace is Paige's single authority over the project's files
// (spec story 3): a path guard every operation goes through, file reads with
// language detection, atomic writes, the in-memory buffer cache the editor
// feeds, unified diffs of buffers against disk, the project tree, and a
// recursive file watcher.
//
// # Invariants
//
//   - No file is read or written unless [Guard.Resolve] accepted its path:
//     inside PROJECT_DIR after symlinks are resolved on both sides.
//   - Every path that leaves this package is the one normalised
//     project-relative form ([Path.Rel]: slash-separated, clean, no leading
//     "./"), whatever form the caller used, so "src/a.ts", "./src/a.ts" and
//     "/abs/project/src/a.ts" are the same buffer.
//   - Binary files (known binary extension, or a NUL byte in the first 8 KB)
//     are flagged on read and never enter the buffer cache or a diff (EC-12).
//   - [Workspace.WriteFile] is for the editor (WebSocket) side only; MCP tools
//     must never call it (FR-026).
//
// A Workspace is safe for concurrent use. Concurrent buffer updates of the
// same file: last write wins (EC-15).
package workspace

import (
	"errors"
	"fmt"
	"io/fs"
	"os"
	"path/filepath"
	"time"
)

// Options configures [New]. A nil *Options means defaults.
type Options struct {
	// Now returns the current time for buffer timestamps. If nil, time.Now.
	Now func() time.Time
	// MaxReadBytes caps ReadFile; larger files are an error. If zero,
	// [DefaultMaxReadBytes].
	MaxReadBytes int64
}

// DefaultMaxReadBytes is the read cap (EC-14: large files are not special,
// but a 50 MB file in a WebSocket frame helps nobody).
const DefaultMaxReadBytes = 50 << 20

// Workspace is the file-system layer for one project directory.
type Workspace struct {
	guard   *Guard
	now     func() time.Time
	maxRead int64
	bufs    bufferCache
}

// New returns a Workspace for projectDir, which must be an existing directory.
func New(projectDir string, opts *Options) (*Workspace, error) {
	var o Options
	if opts != nil {
		o = *opts
	}
	if o.Now == nil {
		o.Now = time.Now
	}
	if o.MaxReadBytes <= 0 {
		o.MaxReadBytes = DefaultMaxReadBytes
	}
	g, err := NewGuard(projectDir)
	if err != nil {
		return nil, err
	}
	w := &Workspace{guard: g, now: o.Now, maxRead: o.MaxReadBytes}
	w.bufs.init()
	return w, nil
}

// Guard returns the workspace's path guard.
func (w *Workspace) Guard() *Guard { return w.guard }

// Root returns the real absolute path of the project directory.
func (w *Workspace) Root() string { return w.guard.root }

// File is the result of [Workspace.ReadFile]; the JSON form is the payload
// of fs:content. Content is empty for binary files.
type File struct {
	Path      string `json:"path"`
	Content   string `json:"content"`
	Language  string `json:"language"`
	LineCount int    `json:"lineCount"`
	Binary    bool   `json:"binary,omitempty"`
	Size      int64  `json:"size"`
}

// ReadFile reads a project file from disk (scenario 3.1): content, language
// by name and line count. A binary file is returned with Binary set and no
// content. Errors wrap [ErrOutsideProject], [ErrInvalidPath] or the
// os error (errors.Is(err, fs.ErrNotExist) for a missing file).
func (w *Workspace) ReadFile(p string) (File, error) {
	rp, err := w.guard.Resolve(p)
	if err != nil {
		return File{}, err
	}
	data, size, err := w.read(rp.Abs)
	if err != nil {
		return File{Path: rp.Rel}, err
	}
	f := File{Path: rp.Rel, Language: Language(rp.Rel), Size: size}
	if IsBinaryName(rp.Rel) || LooksBinary(data) {
		f.Binary = true
		return f, nil
	}
	f.Content = string(data)
	f.LineCount = LineCount(f.Content)
	return f, nil
}

func (w *Workspace) read(abs string) ([]byte, int64, error) {
	info, err := os.Stat(abs)
	if err != nil {
		return nil, 0, err
	}
	if info.IsDir() {
		return nil, 0, fmt.Errorf("%s: %w", abs, errIsDir)
	}
	if info.Size() > w.maxRead {
		return nil, info.Size(), fmt.Errorf("%s is %d bytes, over the %d byte limit", abs, info.Size(), w.maxRead)
	}
	data, err := os.ReadFile(abs)
	return data, int64(len(data)), err
}

var errIsDir = errors.New("is a directory")

// WriteFile writes content to a project file atomically — a temporary file
// in the same directory, fsync, rename — creating missing parent
// directories, and marks the file's buffer clean with the saved content
// (scenario 3.2, FR-025, FR-029). It returns the normalised path.
//
// The path is checked (guard, length and depth limits, binary name) before
// anything is created; a save that fails after creating parent
// directories removes exactly the directories it created, never ones that
// existed before.
//
// Only the editor (WebSocket file:save) may call WriteFile; MCP tools are
// read-only (FR-026). Binary file names are refused.
func (w *Workspace) WriteFile(p, content string) (Path, error) {
	rp, err := w.guard.Resolve(p)
	if err != nil {
		return rp, err
	}
	if rp.Rel == "." {
		return rp, fmt.Errorf("%q: %w: the project directory is not a file", p, ErrInvalidPath)
	}
	if IsBinaryName(rp.Rel) {
		return rp, fmt.Errorf("%q: %w", p, ErrBinary)
	}
	created, err := mkdirs(filepath.Dir(rp.Abs))
	if err == nil {
		err = writeAtomic(rp.Abs, []byte(content))
	}
	if err != nil {
		removeCreated(created)
		return rp, err
	}
	w.bufs.saved(rp.Rel, content, w.now())
	return rp, nil
}

// mkdirs creates dir and its missing parents like os.MkdirAll and returns
// the directories it created, outermost first. On failure it removes what
// it created itself.
func mkdirs(dir string) ([]string, error) {
	var missing []string
	for cur := dir; ; {
		info, err := os.Stat(cur)
		if err == nil {
			if !info.IsDir() {
				return nil, fmt.Errorf("create parent directories: %s: not a directory", cur)
			}
			break
		}
		if !errors.Is(err, fs.ErrNotExist) {
			return nil, fmt.Errorf("create parent directories: %w", err)
		}
		missing = append(missing, cur)
		parent := filepath.Dir(cur)
		if parent == cur {
			break
		}
		cur = parent
	}
	created := make([]string, 0, len(missing))
	for i := len(missing) - 1; i >= 0; i-- {
		if err := os.Mkdir(missing[i], 0o755); err != nil && !errors.Is(err, fs.ErrExist) {
			removeCreated(created)
			return nil, fmt.Errorf("create parent directories: %w", err)
		} else if err == nil {
			created = append(created, missing[i])
		}
	}
	return created, nil
}

// removeCreated removes directories mkdirs created, innermost first. A
// directory that is no longer empty (someone else wrote into it
// meanwhile) is left alone.
func removeCreated(created []string) {
	for i := len(created) - 1; i >= 0; i-- {
		_ = os.Remove(created[i])
	}
}

// tempMarker marks WriteFile's temporary files (".name.paige-123").
const tempMarker = ".paige-"

// createTemp is os.CreateTemp; tests replace it to make a save fail after
// its parent directories exist.
var createTemp = os.CreateTemp

// writeAtomic replaces path with data so readers see the old or the new
// file, never a partial one. An existing file's permissions are kept. The
// parent directory must exist.
func writeAtomic(path string, data []byte) error {
	dir := filepath.Dir(path)
	mode := fs.FileMode(0o644)
	if info, err := os.Stat(path); err == nil {
		if info.IsDir() {
			return fmt.Errorf("%s: %w", path, errIsDir)
		}
		mode = info.Mode().Perm()
	}
	tmp, err := createTemp(dir, "."+filepath.Base(path)+tempMarker+"*")
	if err != nil {
		return fmt.Errorf("write %s: %w", path, err)
	}
	defer os.Remove(tmp.Name()) // no-op after a successful rename
	if _, err := tmp.Write(data); err != nil {
		tmp.Close()
		return fmt.Errorf("write %s: %w", path, err)
	}
	if err := tmp.Chmod(mode); err != nil {
		tmp.Close()
		return fmt.Errorf("write %s: %w", path, err)
	}
	if err := tmp.Sync(); err != nil {
		tmp.Close()
		return fmt.Errorf("write %s: %w", path, err)
	}
	if err := tmp.Close(); err != nil {
		return fmt.Errorf("write %s: %w", path, err)
	}
	if err := os.Rename(tmp.Name(), path); err != nil {
		return fmt.Errorf("write %s: %w", path, err)
	}
	if d, err := os.Open(dir); err == nil { // persist the rename; best effort
		d.Sync()
		d.Close()
	}
	return nil
}
