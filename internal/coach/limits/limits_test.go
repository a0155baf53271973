package limits

import (
	"errors"
	"strings"
	"testing"
)

func TestDepth(t *testing.T) {
	tests := []struct {
		p    string
		want int
	}{
		{"", 0}, {"a", 1}, {"a/b/c", 3}, {"/a//b/", 2}, {`a\b`, 2}, {"./a", 2}, {"///", 0},
	}
	for _, tt := range tests {
		if got := Depth(tt.p); got != tt.want {
			t.Errorf("Depth(%q) = %d, want %d", tt.p, got, tt.want)
		}
	}
}

func TestChecks(t *testing.T) {
	deep := strings.Repeat("d/", PathDepth) + "f"
	tests := []struct {
		name string
		err  error
		want string // "" means accepted
	}{
		{"path ok", Path("path", "src/a.go"), ""},
		{"path at depth limit", Path("path", strings.Repeat("d/", PathDepth-1)+"f"), ""},
		{"path too deep", Path("path", deep), "path: 65 components, over the limit of 64"},
		{"path too long", Path("path", strings.Repeat("x", PathBytes+1)), "path: 4097 bytes, over the limit of 4096"},
		{"bytes at limit", Bytes("message", strings.Repeat("x", TextBytes), TextBytes), ""},
		{"bytes over", Bytes("message", strings.Repeat("x", TextBytes+1), TextBytes), "message: 65537 bytes, over the limit of 65536"},
		{"count over", Count("paths", 100000, PathsPerCall), "paths: 100000 items, over the limit of 1000"},
		{"paths item", Paths("paths", []string{"a", deep}, PathsPerCall), "paths[1]: 65 components, over the limit of 64"},
		{"paths count", Paths("paths", make([]string, PathsPerCall+1), PathsPerCall), "paths: 1001 items, over the limit of 1000"},
		{"names item", Names("labels", []string{strings.Repeat("l", NameBytes+1)}, NameBytes), "labels[0]: 257 bytes, over the limit of 256"},
		{"names count", Names("labels", make([]string, ListItems+1), NameBytes), "labels: 101 items, over the limit of 100"},
		{"cells", Cells("cols", TerminalCells+1, TerminalCells), "cols: 10001 cells, over the limit of 10000"},
		{"first", First(nil, Count("a", 2, 1), Count("b", 3, 1)), "a: 2 items, over the limit of 1"},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			if tt.want == "" {
				if tt.err != nil {
					t.Fatalf("got %v, want nil", tt.err)
				}
				return
			}
			if tt.err == nil || tt.err.Error() != tt.want {
				t.Fatalf("got %v, want %q", tt.err, tt.want)
			}
			if !errors.Is(tt.err, ErrExceeded) || As(tt.err) == nil {
				t.Errorf("%v does not wrap ErrExceeded", tt.err)
			}
		})
	}
}

func FuzzPath(f *testing.F) {
	f.Add("src/a.go")
	f.Add(strings.Repeat("a/", 70))
	f.Fuzz(func(t *testing.T, p string) {
		err := Path("p", p)
		if (len(p) > PathBytes || Depth(p) > PathDepth) != (err != nil) {
			t.Fatalf("Path(%q) = %v", p, err)
		}
	})
}
