package workspace

import (
	"fmt"
	"path/filepath"
	"slices"
	"strings"
	"testing"
)

// mapModel is the plain map knownSet replaces, with the watcher's
// operations on it as they were written before.
type mapModel map[string]bool

func (m mapModel) removeBelow(rel string) []string {
	var dirs []string
	for p, dir := range m {
		if strings.HasPrefix(p, rel+"/") {
			if dir {
				dirs = append(dirs, p)
			}
			delete(m, p)
		}
	}
	return dirs
}

// checkSame compares every path of the model, and the probes, with k.
func checkSame(t *testing.T, k *knownSet, m mapModel, probes ...string) {
	t.Helper()
	if k.len() != len(m) {
		t.Fatalf("len %d, model %d", k.len(), len(m))
	}
	for p := range m {
		probes = append(probes, p)
	}
	for _, p := range probes {
		d, ok := k.get(p)
		md, mok := m[p]
		if d != md || ok != mok {
			t.Fatalf("get(%q) = %v, %v; model %v, %v", p, d, ok, md, mok)
		}
	}
}

func TestKnownSetTable(t *testing.T) {
	k, m := newKnownSet(), mapModel{}
	steps := []struct {
		op, path string
		dir      bool
	}{
		{"set", "src", true}, {"set", "src/b.ts", false}, {"set", "src/a.ts", false},
		{"set", "src/c", true}, {"set", "src/c/x.go", false}, {"set", "src/c/y", true},
		{"set", "src/c/y/z", false}, {"set", "srcx/a", false}, {"set", "src/", false},
		{"set", "", false}, {"set", "/", true}, {"set", "README.md", false},
		{"set", "src/a.ts", true}, {"set", "src/a.ts", false}, // kind changes, not duplicates
		{"remove", "src/b.ts", false}, {"remove", "src/b.ts", false}, {"remove", "nope/x", false},
		{"below", "src/c", false}, {"remove", "src/c", false},
		{"below", "src", false}, {"below", "missing", false},
	}
	for _, s := range steps {
		switch s.op {
		case "set":
			k.set(s.path, s.dir)
			m[s.path] = s.dir
		case "remove":
			k.remove(s.path)
			delete(m, s.path)
		case "below":
			var got []string
			k.removeBelow(s.path, func(p string) { got = append(got, p) })
			want := m.removeBelow(s.path)
			slices.Sort(got)
			slices.Sort(want)
			if !slices.Equal(got, want) {
				t.Fatalf("removeBelow(%q) dirs %q, model %q", s.path, got, want)
			}
		}
		checkSame(t, k, m, "src/c/y/z", "srcx", "src/c", "s", "src/a", "src/a.tsx")
	}
	if _, ok := k.get("srcx/a"); !ok {
		t.Error("srcx/a forgotten with src/ (prefix without the slash)")
	}
	if _, ok := k.dirs["src/c"]; ok {
		t.Error("an emptied directory keeps its entry")
	}
}

// FuzzKnownSet runs a byte-coded sequence of set, remove, removeBelow and
// get on knownSet and on a plain map: the answers must be the same.
func FuzzKnownSet(f *testing.F) {
	f.Add([]byte("\x00a\x01b/c\x02a\x03a/b\x00a/b/c\x04a"))
	f.Add([]byte("\x01x/y\x00x/z\x01x/a\x01x/m\x02x/z\x00x\x04x\x05"))
	f.Fuzz(func(t *testing.T, prog []byte) {
		k, m := newKnownSet(), mapModel{}
		// The names come from a small alphabet so that paths collide.
		for len(prog) > 0 {
			op := prog[0] % 5
			prog = prog[1:]
			end := 0
			for end < len(prog) && prog[end] >= 6 && end < 12 {
				end++
			}
			path := string(prog[:end])
			prog = prog[end:]
			switch op {
			case 0, 1:
				k.set(path, op == 1)
				m[path] = op == 1
			case 2:
				k.remove(path)
				delete(m, path)
			case 3:
				var got []string
				k.removeBelow(path, func(p string) { got = append(got, p) })
				want := m.removeBelow(path)
				slices.Sort(got)
				slices.Sort(want)
				if !slices.Equal(got, want) {
					t.Fatalf("removeBelow(%q) dirs %q, model %q", path, got, want)
				}
			case 4:
				k.compact()
			}
			checkSame(t, k, m, path, path+"/", path+"x")
		}
	})
}

// The initial walk adds names in byte order; a directory of many entries
// then costs its names and four bytes each.
func TestKnownSetWalkOrder(t *testing.T) {
	k := newKnownSet()
	for i := range 1000 {
		k.set(fmt.Sprintf("d/f%04d.ts", i), i%10 == 0)
	}
	k.compact()
	c := k.dirs["d"]
	if len(c.ends) != 1000 || len(c.names) != 1000*len("f0000.ts") || cap(c.ends) != 1000 {
		t.Fatalf("entries %d, name bytes %d, cap %d", len(c.ends), len(c.names), cap(c.ends))
	}
	for i := range 1000 {
		d, ok := k.get(fmt.Sprintf("d/f%04d.ts", i))
		if !ok || d != (i%10 == 0) {
			t.Fatalf("f%04d: %v %v", i, d, ok)
		}
	}
}

// withinModel is within as it was written before it stopped building
// base + separator on every call.
func withinModel(base, clean string) (string, bool) {
	if clean == base {
		return ".", true
	}
	prefix := base
	if !strings.HasSuffix(prefix, string(filepath.Separator)) {
		prefix += string(filepath.Separator)
	}
	if !strings.HasPrefix(clean, prefix) {
		return "", false
	}
	return filepath.ToSlash(clean[len(prefix):]), true
}

func FuzzWithin(f *testing.F) {
	for _, s := range [][2]string{{"/p", "/p"}, {"/p", "/p/a"}, {"/p", "/p-evil/x"}, {"/p", "/p/"},
		{"/", "/a"}, {"/p/", "/p/a"}, {"/p", "/"}, {"", "a"}, {"/p", "/pa"}} {
		f.Add(s[0], s[1])
	}
	f.Fuzz(func(t *testing.T, base, clean string) {
		rel, ok := within(base, clean)
		mrel, mok := withinModel(base, clean)
		if rel != mrel || ok != mok {
			t.Fatalf("within(%q, %q) = %q, %v; before %q, %v", base, clean, rel, ok, mrel, mok)
		}
		if filepath.Separator == '/' && testing.AllocsPerRun(1, func() { within(base, clean) }) != 0 {
			t.Fatalf("within(%q, %q) allocates", base, clean)
		}
	})
}
