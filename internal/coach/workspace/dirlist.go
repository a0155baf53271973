package workspace

import (
	"bytes"
	"slices"
)

// dirLister lists directories for the watcher's walk the way os.ReadDir
// does (the same entries, sorted by name, the same partial listing with
// an error), but into buffers it reuses: no DirEntry and no string per
// entry. A 100,000-file walk with os.ReadDir left about 19 MB of garbage,
// the RSS a large project added while its walk ran (issue 15). On Linux it
// reads the directory with getdents64 (dirlist_linux.go); elsewhere it
// copies os.ReadDir's answer.
//
// Listings are kept per depth of the walk: a listing at depth d stays
// valid while deeper ones are made, until the next list at depth d. Not
// safe for concurrent use.
type dirLister struct {
	levels []*dirListing
	buf    []byte // the system's directory records, reused (Linux)
}

// dirListing is one directory's entries, sorted by name.
type dirListing struct {
	names []byte   // the names, concatenated in the order read
	ents  []dirEnt // sorted by name
}

// dirEnt is one entry of a listing: its name's place in names and
// whether it is a directory (a symbolic link is not).
type dirEnt struct {
	start, end int
	isDir      bool
}

// name returns entry i's name; it is valid until the listing is reused.
func (l *dirListing) name(i int) []byte {
	e := l.ents[i]
	return l.names[e.start:e.end]
}

// add appends an entry.
func (l *dirListing) add(name []byte, isDir bool) {
	start := len(l.names)
	l.names = append(l.names, name...)
	l.ents = append(l.ents, dirEnt{start: start, end: len(l.names), isDir: isDir})
}

// sort orders the entries by name, as os.ReadDir does.
func (l *dirListing) sort() {
	slices.SortFunc(l.ents, func(a, b dirEnt) int {
		return bytes.Compare(l.names[a.start:a.end], l.names[b.start:b.end])
	})
}

// level returns the listing of depth, emptied.
func (d *dirLister) level(depth int) *dirListing {
	for len(d.levels) <= depth {
		d.levels = append(d.levels, &dirListing{})
	}
	l := d.levels[depth]
	l.names, l.ents = l.names[:0], l.ents[:0]
	return l
}

// list reads the directory at path into the listing of depth and returns
// it, sorted, with what os.ReadDir would return as its error (the entries
// read before a failure are kept, as os.ReadDir keeps them).
func (d *dirLister) list(path string, depth int) (*dirListing, error) {
	l := d.level(depth)
	err := d.read(path, l)
	l.sort()
	return l, err
}
