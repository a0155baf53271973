package workspace

import (
	"io/fs"
	"os"
	"path/filepath"
	"slices"
	"strings"
)

// NodeType is "file" or "directory".
type NodeType string

// Node types of the project tree.
const (
	NodeFile      NodeType = "file"
	NodeDirectory NodeType = "directory"
)

// Node is one entry of the project tree; the JSON form is the TreeNode of
// fs:tree `{root: TreeNode}`. Path is project-relative and slash-separated
// ("" for the root). Children is set (possibly empty) for directories only
// and is sorted directories first, then by name.
type Node struct {
	Name     string   `json:"name"`
	Path     string   `json:"path"`
	Type     NodeType `json:"type"`
	Children []*Node  `json:"children,omitempty"`
}

// excludedDirs are never listed or watched (FR-034).
var excludedDirs = map[string]bool{
	"node_modules": true, ".git": true, "dist": true, "build": true,
	"coverage": true, ".next": true, ".cache": true,
}

// Excluded reports whether a directory with this base name is left out of
// the tree and the watcher.
func Excluded(name string) bool { return excludedDirs[name] }

// excludedPath reports whether any component of the slash-separated
// relative path is an excluded directory name.
func excludedPath(rel string) bool {
	for rel != "" {
		var part string
		part, rel, _ = strings.Cut(rel, "/")
		if excludedDirs[part] {
			return true
		}
	}
	return false
}

// Tree scans the project directory (scenario 3.6, FR-033): every file and
// directory except excluded directories and their contents. Symlinks are
// not followed; one whose target is inside the project is listed as a file
// (or an empty directory), others are left out. Unreadable directories are
// listed without children.
func (w *Workspace) Tree() (*Node, error) {
	root := &Node{Name: filepath.Base(w.guard.root), Path: "", Type: NodeDirectory}
	if _, err := w.guard.fs.Stat("."); err != nil {
		return nil, err
	}
	w.scan(root, ".")
	return root, nil
}

// scan lists the directory rel (relative to the project, OS separators)
// through the project's os.Root.
func (w *Workspace) scan(dir *Node, rel string) {
	entries, err := w.readDir(rel)
	dir.Children = make([]*Node, 0, len(entries))
	if err != nil {
		return
	}
	prefix := dir.Path
	if prefix != "" {
		prefix += "/"
	}
	for _, e := range entries {
		name := e.Name()
		n := &Node{Name: name, Path: prefix + name, Type: NodeFile}
		switch mode := e.Type(); {
		case mode.IsDir():
			if Excluded(name) {
				continue
			}
			n.Type = NodeDirectory
			w.scan(n, filepath.Join(rel, name))
		case mode&os.ModeSymlink != 0:
			t, ok := w.symlinkType(n.Path)
			if !ok {
				continue
			}
			n.Type = t
			if t == NodeDirectory {
				n.Children = []*Node{}
			}
		}
		dir.Children = append(dir.Children, n)
	}
	sortNodes(dir.Children)
}

// symlinkType classifies a symlink whose target is inside the project.
func (w *Workspace) symlinkType(rel string) (NodeType, bool) {
	rp, err := w.guard.Resolve(rel)
	if err != nil {
		return "", false
	}
	info, err := w.guard.fs.Stat(filepath.FromSlash(rp.Rel))
	if err != nil {
		return "", false
	}
	if info.IsDir() {
		return NodeDirectory, true
	}
	return NodeFile, true
}

// readDir lists the directory rel under the project's os.Root.
func (w *Workspace) readDir(rel string) ([]fs.DirEntry, error) {
	d, err := w.guard.fs.Open(rel)
	if err != nil {
		return nil, err
	}
	defer d.Close()
	return d.ReadDir(-1)
}

// sortNodes orders directories first, then by name.
func sortNodes(ns []*Node) {
	slices.SortFunc(ns, func(a, b *Node) int {
		if a.Type != b.Type {
			if a.Type == NodeDirectory {
				return -1
			}
			return 1
		}
		return strings.Compare(a.Name, b.Name)
	})
}
