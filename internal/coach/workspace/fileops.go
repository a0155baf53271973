package workspace

import (
	"errors"
	"fmt"
	"io/fs"
	"os"
	"path/filepath"
	"strings"
)

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
