package embedding_test

import (
	"context"
	"math"
	"strings"
	"testing"

	"github.com/google/go-cmp/cmp"

	"github.com/paige-dev/paige/internal/embedding"
)

func dot(a, b []float32) float64 {
	var s float64
	for i := range a {
		s += float64(a[i]) * float64(b[i])
	}
	return s
}

func TestLexicalScenario82(t *testing.T) {
	l := embedding.NewLexical(0)
	vecs, err := l.Embed(context.Background(), []string{
		"OAuth callback race condition: two redirects raced to write the session token",
		"CSS grid layout: used grid-template-areas for the dashboard",
		"race condition in auth flow",
	})
	if err != nil {
		t.Fatal(err)
	}
	oauth, css := dot(vecs[2], vecs[0]), dot(vecs[2], vecs[1])
	if oauth <= css+0.1 {
		t.Errorf("similarity to query: oauth %.3f, css %.3f; want oauth clearly higher", oauth, css)
	}
}

func TestLexicalRanking(t *testing.T) {
	l := embedding.NewLexical(0)
	docs := []string{
		"useEffect cleanup function prevents memory leaks when the component unmounts",
		"SQL index on created_at made the dashboard query fast",
		"Goroutine leak fixed by cancelling the context",
		"CSS flexbox alignment of the navbar",
	}
	tests := []struct {
		query string
		want  int
	}{
		{"useEffect cleanup", 0},
		{"react effect clean up on unmount", 0},
		{"slow sql query needs an index", 1},
		{"goroutines leaking, context cancellation", 2},
		{"align items in a flex container", 3},
	}
	dv, _ := l.Embed(context.Background(), docs)
	for _, tt := range tests {
		t.Run(tt.query, func(t *testing.T) {
			q := l.Vector(tt.query)
			best, bestScore := -1, -2.0
			for i, d := range dv {
				if s := dot(q, d); s > bestScore {
					best, bestScore = i, s
				}
			}
			if best != tt.want {
				t.Errorf("best match: got %q, want %q", docs[best], docs[tt.want])
			}
		})
	}
}

func TestLexicalProperties(t *testing.T) {
	l := embedding.NewLexical(128)
	if l.Dimensions() != 128 || l.ID() != "lexical-v1/128" {
		t.Errorf("got dims %d id %q", l.Dimensions(), l.ID())
	}
	a, b := l.Vector("Deterministic embeddings, please"), l.Vector("Deterministic embeddings, please")
	if diff := cmp.Diff(a, b); diff != "" {
		t.Errorf("not deterministic:\n%s", diff)
	}
	if n := dot(a, a); math.Abs(n-1) > 1e-5 {
		t.Errorf("norm²: got %v, want 1", n)
	}
	if z := l.Vector("   the and of "); dot(z, z) != 0 {
		t.Errorf("stopwords only: got non-zero vector")
	}
	if s := dot(l.Vector("Races"), l.Vector("racing")); s < 0.5 {
		t.Errorf("stemming: races vs racing similarity %.3f, want ≥ 0.5", s)
	}
}

func TestWordsAndStem(t *testing.T) {
	tests := []struct {
		in   string
		want []string
	}{
		{"The race conditions in OAuth", []string{"rac", "condition", "oauth", "auth"}},
		{"useEffect", []string{"useeffect", "use", "effect"}},
		{"HTTPServer v2", []string{"httpserver", "http", "server", "v2"}},
		{"classes, uses; queries", []string{"class", "use", "query"}},
		{"héllo wörld", []string{"héllo", "wörld"}},
	}
	for _, tt := range tests {
		if diff := cmp.Diff(tt.want, embedding.Words(tt.in)); diff != "" {
			t.Errorf("Words(%q) (-want +got):\n%s", tt.in, diff)
		}
	}
}

func TestLexicalCancelled(t *testing.T) {
	ctx, cancel := context.WithCancel(context.Background())
	cancel()
	if _, err := embedding.NewLexical(0).Embed(ctx, []string{"x"}); err == nil {
		t.Error("got nil error on a cancelled context")
	}
}

func FuzzLexical(f *testing.F) {
	for _, s := range []string{"", "OAuth race", "useEffect", "ÅÄÖ 123 !!!", strings.Repeat("a", 1000), "\xff\xfe"} {
		f.Add(s)
	}
	l := embedding.NewLexical(64)
	f.Fuzz(func(t *testing.T, s string) {
		v := l.Vector(s)
		if len(v) != 64 {
			t.Fatalf("len: got %d", len(v))
		}
		n := dot(v, v)
		if n != 0 && math.Abs(n-1) > 1e-4 {
			t.Errorf("norm² %v for %q", n, s)
		}
	})
}

func BenchmarkLexicalEmbed(b *testing.B) {
	l := embedding.NewLexical(0)
	text := "Fixed the OAuth callback race condition by serialising token writes; learned about mutexes and useEffect cleanup."
	b.SetBytes(int64(len(text)))
	b.ReportAllocs()
	for b.Loop() {
		l.Vector(text)
	}
}
