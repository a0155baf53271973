package workspace

import (
	"sort"
	"strings"
)

// knownSet is the watcher's record of the paths it has seen (slash-separated,
// relative to the project) and whether each is a directory. It answers like a
// map[string]bool but stores paths interned by directory: one entry per
// directory holding its children's names packed in one byte slice, sorted,
// with one uint32 per child (end offset and kind bit). A 100,000-file project
// costs about the length of each name plus four bytes per file, instead of a
// full path string and a map slot (issue 15).
//
// It is not safe for concurrent use; the watcher's goroutine owns it.
type knownSet struct {
	top  children             // paths without a slash
	dirs map[string]*children // parent path → its children, for paths with one
	n    int
}

// children is the packed, sorted set of one directory's child names.
type children struct {
	names []byte   // the names, concatenated in byte order
	ends  []uint32 // per name: end offset in names, dirBit when a directory
}

// dirBit marks a directory in children.ends; offsets stay below it.
const dirBit = 1 << 31

func newKnownSet() *knownSet { return &knownSet{dirs: make(map[string]*children)} }

// split returns the node holding rel (creating it when create is set) and
// rel's name within it.
func (k *knownSet) split(rel string, create bool) (*children, string) {
	i := strings.LastIndexByte(rel, '/')
	if i < 0 {
		return &k.top, rel
	}
	c := k.dirs[rel[:i]]
	if c == nil && create {
		c = &children{}
		k.dirs[strings.Clone(rel[:i])] = c
	}
	return c, rel[i+1:]
}

// get returns whether rel is a directory and whether it is known.
func (k *knownSet) get(rel string) (isDir, ok bool) {
	c, name := k.split(rel, false)
	if c == nil {
		return false, false
	}
	i, found := c.find(name)
	if !found {
		return false, false
	}
	return c.ends[i]&dirBit != 0, true
}

// set records rel with its kind.
func (k *knownSet) set(rel string, isDir bool) {
	c, name := k.split(rel, true)
	if c.put(name, isDir) {
		k.n++
	}
}

// remove forgets rel itself (not what lies below it).
func (k *knownSet) remove(rel string) {
	i := strings.LastIndexByte(rel, '/')
	c, name := k.split(rel, false)
	if c == nil || !c.del(name) {
		return
	}
	k.n--
	if i >= 0 && len(c.ends) == 0 {
		delete(k.dirs, rel[:i])
	}
}

// removeBelow forgets every path starting with rel+"/", calling dir (when
// not nil) with each directory among them.
func (k *knownSet) removeBelow(rel string, dir func(path string)) {
	prefix := rel + "/"
	for p, c := range k.dirs {
		if p != rel && !strings.HasPrefix(p, prefix) {
			continue
		}
		if dir != nil {
			for i := range c.ends {
				if c.ends[i]&dirBit != 0 {
					dir(p + "/" + c.name(i))
				}
			}
		}
		k.n -= len(c.ends)
		delete(k.dirs, p)
	}
}

// len returns the number of known paths.
func (k *knownSet) len() int { return k.n }

// compact trims every directory's slices to their length, dropping the
// spare capacity appends left.
func (k *knownSet) compact() {
	k.top.compact()
	for _, c := range k.dirs {
		c.compact()
	}
}

func (c *children) compact() {
	if cap(c.names) > len(c.names) {
		c.names = append(make([]byte, 0, len(c.names)), c.names...)
	}
	if cap(c.ends) > len(c.ends) {
		c.ends = append(make([]uint32, 0, len(c.ends)), c.ends...)
	}
}

func (c *children) start(i int) uint32 {
	if i == 0 {
		return 0
	}
	return c.ends[i-1] &^ dirBit
}

func (c *children) name(i int) string {
	return string(c.names[c.start(i) : c.ends[i]&^dirBit])
}

// cmp compares child i's name with name, as strings.Compare does.
func (c *children) cmp(i int, name string) int {
	b := c.names[c.start(i) : c.ends[i]&^dirBit]
	switch {
	case string(b) == name: // compared without a copy
		return 0
	case string(b) < name:
		return -1
	}
	return 1
}

// find returns the index of name, or where it would be inserted.
func (c *children) find(name string) (int, bool) {
	n := len(c.ends)
	if n > 0 && c.cmp(n-1, name) < 0 {
		return n, false // past the last: the initial walk's order
	}
	i := sort.Search(n, func(i int) bool { return c.cmp(i, name) >= 0 })
	return i, i < n && c.cmp(i, name) == 0
}

// put sets name's kind, adding it if absent; it reports whether it added.
func (c *children) put(name string, isDir bool) bool {
	var bit uint32
	if isDir {
		bit = dirBit
	}
	i, found := c.find(name)
	if found {
		c.ends[i] = c.ends[i]&^dirBit | bit
		return false
	}
	at := c.start(i)
	if len(c.names)+len(name) >= dirBit {
		// 2 GiB of names in one directory: not recorded rather than a
		// crash; a later event for it is then reported as an add.
		return false
	}
	c.names = append(c.names, name...)
	if int(at) < len(c.names)-len(name) {
		copy(c.names[int(at)+len(name):], c.names[at:len(c.names)-len(name)])
		copy(c.names[at:], name)
	}
	c.ends = append(c.ends, 0)
	copy(c.ends[i+1:], c.ends[i:])
	for j := i + 1; j < len(c.ends); j++ {
		c.ends[j] += uint32(len(name))
	}
	c.ends[i] = (at + uint32(len(name))) | bit
	return true
}

// del removes name; it reports whether it was there.
func (c *children) del(name string) bool {
	i, found := c.find(name)
	if !found {
		return false
	}
	at, end := c.start(i), c.ends[i]&^dirBit
	size := end - at
	c.names = append(c.names[:at], c.names[end:]...)
	c.ends = append(c.ends[:i], c.ends[i+1:]...)
	for j := i; j < len(c.ends); j++ {
		c.ends[j] -= size
	}
	return true
}
