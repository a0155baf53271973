package spatest

import (
	"fmt"
	"testing"
	"testing/fstest"

	"github.com/google/go-cmp/cmp"
)

// recorder is a testing.TB that keeps the errors reported to it.
type recorder struct {
	testing.TB
	errs []string
}

func (r *recorder) Helper() {}

func (r *recorder) Errorf(format string, args ...any) {
	r.errs = append(r.errs, fmt.Sprintf(format, args...))
}

func TestCheckBuild(t *testing.T) {
	index := `<script src="/ui/assets/app.js"></script><link href="/ui/assets/app.css">` +
		`<link href="/ui/assets/gone.css"><script src="https://cdn.example/x.js"></script>` +
		`<img src="data:image/png;base64,AA"><link href="/elsewhere/a.css">`
	fsys := fstest.MapFS{
		"index.html":     {Data: []byte(index)},
		"assets/app.js":  {Data: []byte("1")},
		"assets/app.css": {Data: []byte("b{}")},
	}
	r := &recorder{TB: t}
	got := CheckBuild(r, fsys, "/ui/")
	if diff := cmp.Diff([]string{"assets/app.js", "assets/app.css"}, got); diff != "" {
		t.Errorf("names (-want +got):\n%s", diff)
	}
	if len(r.errs) != 4 { // gone.css, the CDN, data:, outside the prefix
		t.Errorf("errors: got %d, want 4:\n%q", len(r.errs), r.errs)
	}
	r = &recorder{TB: t}
	if got := CheckBuild(r, fstest.MapFS{"index.html": {Data: []byte(`<script src="/a.js"></script>`)}, "a.js": {}}, "/"); len(got) != 1 || len(r.errs) != 0 {
		t.Errorf("a clean build at /: names %q, errors %q", got, r.errs)
	}
}
