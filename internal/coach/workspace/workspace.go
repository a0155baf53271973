// Package workspace is Paige's single authority over the project's files
// (spec story 3): a path guard every operation goes through, file reads with
// language detection, atomic writes, the in-memory buffer cache the editor
// feeds, unified diffs of buffers against disk, the project tree, and a
// recursive file watcher.
//
// # Invariants
//
//   - No file is read or written unless [Guard.Resolve] accepted its path:
//     inside PROJECT_DIR after symlinks are resolved on both sides. The
//     file is then opened through the project's [os.Root] ([Guard.FS]), so
//     a path changed on disk after the check cannot lead outside either.
//   - Every path that leaves this package is the one normalised
//     project-relative form ([Path.Rel]: slash-separated, clean, no leading
//     "./"), whatever form the caller used, so "src/a.ts", "./src/a.ts" and
//     "/abs/project/src/a.ts" are the same buffer.
//   - Binary files (known binary extension, or a NUL byte in the first 8 KB)
//     are flagged on read and never enter the buffer cache or a diff (EC-12).
//   - [Workspace.WriteFile] is for the editor (WebSocket) side only; MCP tools
//     must never call it (FR-026).
//   - A save writes a temporary file beside its target and renames it over
//     it: the file is the old or the new content, never torn. The
//     watcher's walk removes the temporary files of saves killed before
//     their rename, when they are older than the Workspace.
//
// A Workspace is safe for concurrent use. Concurrent buffer updates of the
// same file: last write wins (EC-15).
package workspace

import (
	"errors"
	"fmt"
	"io"
	"io/fs"
	"math/rand/v2"
	"os"
	"path/filepath"
	"strconv"
	"strings"
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
	started time.Time // when New ran: older temporary files are leftovers
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
	w := &Workspace{guard: g, started: time.Now(), now: o.Now, maxRead: o.MaxReadBytes}
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
	data, size, err := w.read(rp)
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

// read reads a resolved file through the project's os.Root, checking the
// opened file (not the path) for its type and size.
func (w *Workspace) read(rp Path) ([]byte, int64, error) {
	f, err := w.guard.fs.Open(filepath.FromSlash(rp.Rel))
	if err != nil {
		return nil, 0, err
	}
	defer f.Close()
	info, err := f.Stat()
	if err != nil {
		return nil, 0, err
	}
	if info.IsDir() {
		return nil, 0, fmt.Errorf("%s: %w", rp.Abs, errIsDir)
	}
	if info.Size() > w.maxRead {
		return nil, info.Size(), fmt.Errorf("%s is %d bytes, over the %d byte limit", rp.Abs, info.Size(), w.maxRead)
	}
	data, err := io.ReadAll(io.LimitReader(f, w.maxRead+1))
	if err == nil && int64(len(data)) > w.maxRead { // it grew since Stat
		return nil, int64(len(data)), fmt.Errorf("%s is over the %d byte limit", rp.Abs, w.maxRead)
	}
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
	rel := filepath.FromSlash(rp.Rel)
	created, err := mkdirs(w.guard.fs, filepath.Dir(rel))
	if err == nil {
		err = writeAtomic(w.guard.fs, rel, []byte(content))
	}
	if err != nil {
		removeCreated(w.guard.fs, created)
		return rp, err
	}
	w.bufs.saved(rp.Rel, content, w.now())
	return rp, nil
}

// mkdirs creates dir (relative to the project root r) and its missing
// parents like os.MkdirAll and returns the directories it created,
// outermost first. On failure it removes what it created itself.
func mkdirs(r *os.Root, dir string) ([]string, error) {
	var missing []string
	for cur := dir; cur != "."; cur = filepath.Dir(cur) {
		info, err := r.Stat(cur)
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
	}
	created := make([]string, 0, len(missing))
	for i := len(missing) - 1; i >= 0; i-- {
		if err := r.Mkdir(missing[i], 0o755); err != nil && !errors.Is(err, fs.ErrExist) {
			removeCreated(r, created)
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
func removeCreated(r *os.Root, created []string) {
	for i := len(created) - 1; i >= 0; i-- {
		_ = r.Remove(created[i])
	}
}

// createTemp creates a new temporary file in dir under r whose name starts
// with prefix, like os.CreateTemp, and returns it with its path relative
// to r; tests replace it to make a save fail after its parent directories
// exist.
var createTemp = func(r *os.Root, dir, prefix string) (*os.File, string, error) {
	for range 100 {
		name := filepath.Join(dir, prefix+strconv.FormatUint(uint64(rand.Uint32()), 10))
		f, err := r.OpenFile(name, os.O_RDWR|os.O_CREATE|os.O_EXCL, 0o600)
		if errors.Is(err, fs.ErrExist) {
			continue
		}
		return f, name, err
	}
	return nil, "", fmt.Errorf("create a temporary file in %s: too many attempts", dir)
}

// writeAtomic replaces the file at rel (relative to the project root r)
// with data so readers see the old or the new file, never a partial one.
// An existing file's permissions are kept. The parent directory must exist.
func writeAtomic(r *os.Root, rel string, data []byte) error {
	dir := filepath.Dir(rel)
	mode := fs.FileMode(0o644)
	if info, err := r.Stat(rel); err == nil {
		if info.IsDir() {
			return fmt.Errorf("%s: %w", rel, errIsDir)
		}
		mode = info.Mode().Perm()
	}
	tmp, tmpName, err := createTemp(r, dir, "."+filepath.Base(rel)+tempMarker)
	if err != nil {
		return fmt.Errorf("write %s: %w", rel, err)
	}
	defer r.Remove(tmpName) // no-op after a successful rename
	if _, err := tmp.Write(data); err != nil {
		tmp.Close()
		return fmt.Errorf("write %s: %w", rel, err)
	}
	if err := tmp.Chmod(mode); err != nil {
		tmp.Close()
		return fmt.Errorf("write %s: %w", rel, err)
	}
	if err := tmp.Sync(); err != nil {
		tmp.Close()
		return fmt.Errorf("write %s: %w", rel, err)
	}
	if err := tmp.Close(); err != nil {
		return fmt.Errorf("write %s: %w", rel, err)
	}
	if err := r.Rename(tmpName, rel); err != nil {
		return fmt.Errorf("write %s: %w", rel, err)
	}
	if d, err := r.Open(dir); err == nil { // persist the rename; best effort
		d.Sync()
		d.Close()
	}
	return nil
}

// ErrExists is returned when a create or rename would replace an existing
// file or directory.
var ErrExists = errors.New("workspace: already exists")

// resolveEntry resolves p for a create, rename or delete: inside the
// project, not the project directory itself, not an excluded directory.
func (w *Workspace) resolveEntry(p string) (Path, string, error) {
	rp, err := w.guard.Resolve(p)
	if err != nil {
		return rp, "", err
	}
	if rp.Rel == "." {
		return rp, "", fmt.Errorf("%q: %w: the project directory itself", p, ErrInvalidPath)
	}
	if excludedPath(rp.Rel) {
		return rp, "", fmt.Errorf("%q: %w: inside a directory Paige does not manage", p, ErrInvalidPath)
	}
	return rp, filepath.FromSlash(rp.Rel), nil
}

// Create creates an empty file at p, or a directory when dir is set, with
// its missing parent directories, through the project's os.Root like
// [Workspace.WriteFile]. It never replaces anything: an existing entry is
// [ErrExists]. It returns the normalised path.
func (w *Workspace) Create(p string, dir bool) (Path, error) {
	rp, rel, err := w.resolveEntry(p)
	if err != nil {
		return rp, err
	}
	if _, err := w.guard.fs.Lstat(rel); err == nil {
		return rp, fmt.Errorf("%s: %w", rp.Rel, ErrExists)
	}
	created, err := mkdirs(w.guard.fs, filepath.Dir(rel))
	if err != nil {
		return rp, err
	}
	if dir {
		err = w.guard.fs.Mkdir(rel, 0o755)
	} else {
		var f *os.File
		f, err = w.guard.fs.OpenFile(rel, os.O_WRONLY|os.O_CREATE|os.O_EXCL, 0o644)
		if err == nil {
			err = f.Close()
		}
	}
	if errors.Is(err, fs.ErrExist) {
		err = fmt.Errorf("%s: %w", rp.Rel, ErrExists)
	}
	if err != nil {
		removeCreated(w.guard.fs, created)
		return rp, err
	}
	return rp, nil
}

// Rename moves the file or directory from to to, both inside the project;
// to must not exist ([ErrExists]) and its parent directories are created.
// The buffer of a renamed file is dropped: the editor reopens it under its
// new name. It returns both normalised paths.
func (w *Workspace) Rename(from, to string) (Path, Path, error) {
	src, srcRel, err := w.resolveEntry(from)
	if err != nil {
		return src, Path{}, err
	}
	dst, dstRel, err := w.resolveEntry(to)
	if err != nil {
		return src, dst, err
	}
	if _, err := w.guard.fs.Lstat(srcRel); err != nil {
		return src, dst, err
	}
	if _, err := w.guard.fs.Lstat(dstRel); err == nil {
		return src, dst, fmt.Errorf("%s: %w", dst.Rel, ErrExists)
	}
	if dst.Rel == src.Rel || strings.HasPrefix(dst.Rel, src.Rel+"/") {
		return src, dst, fmt.Errorf("%q: %w: cannot move a directory into itself", to, ErrInvalidPath)
	}
	created, err := mkdirs(w.guard.fs, filepath.Dir(dstRel))
	if err != nil {
		return src, dst, err
	}
	if err := w.guard.fs.Rename(srcRel, dstRel); err != nil {
		removeCreated(w.guard.fs, created)
		return src, dst, err
	}
	_ = w.DropBuffer(src.Rel)
	return src, dst, nil
}

// Delete removes the file or directory (with its contents) at p. The
// project directory itself is refused.
func (w *Workspace) Delete(p string) (Path, error) {
	rp, rel, err := w.resolveEntry(p)
	if err != nil {
		return rp, err
	}
	if _, err := w.guard.fs.Lstat(rel); err != nil {
		return rp, err
	}
	if err := w.guard.fs.RemoveAll(rel); err != nil {
		return rp, err
	}
	_ = w.DropBuffer(rp.Rel)
	return rp, nil
}
