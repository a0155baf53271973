package embedding

import (
	"context"
	"fmt"
	"math"
	"slices"
	"strings"
	"unicode"
)

// DefaultLexicalDims is the lexical embedder's vector length: small enough
// that a brute-force scan of 100,000 memories stays within a few
// milliseconds, large enough that hash collisions rarely reorder results.
const DefaultLexicalDims = 256

// Feature weights of the lexical embedder: whole (stemmed) words dominate;
// word bigrams reward phrases; character n-grams match word parts
// ("auth" in "oauth", "hook" in "useHooks").
const (
	wordWeight   = 1.0
	bigramWeight = 0.5
	gramWeight   = 0.35
)

// Lexical is the offline, deterministic embedder. It is pure: the same text
// always yields the same vector, on every machine.
type Lexical struct {
	dims int
}

var _ Embedder = (*Lexical)(nil)

// NewLexical returns a lexical embedder of dims dimensions (DefaultLexicalDims
// when dims <= 0).
func NewLexical(dims int) *Lexical {
	if dims <= 0 {
		dims = DefaultLexicalDims
	}
	return &Lexical{dims: dims}
}

// Dimensions returns the vector length.
func (l *Lexical) Dimensions() int { return l.dims }

// ID returns "lexical-v1/<dims>".
func (l *Lexical) ID() string { return fmt.Sprintf("lexical-v1/%d", l.dims) }

// Embed embeds each text; it never fails except on a cancelled ctx.
func (l *Lexical) Embed(ctx context.Context, texts []string) ([][]float32, error) {
	out := make([][]float32, len(texts))
	for i, t := range texts {
		if i%256 == 0 {
			if err := ctx.Err(); err != nil {
				return nil, err
			}
		}
		out[i] = l.Vector(t)
	}
	return out, nil
}

// Vector returns the embedding of one text.
func (l *Lexical) Vector(text string) []float32 {
	tf := map[uint64]float64{} // feature hash → weight
	words := Words(text)
	for i, w := range words {
		tf[fnv64("w:", w, "", "")] += wordWeight
		if i > 0 {
			tf[fnv64("b:", words[i-1], " ", w)] += bigramWeight
		}
		addGrams(tf, w)
	}
	feats := make([]uint64, 0, len(tf))
	for f := range tf {
		feats = append(feats, f)
	}
	slices.Sort(feats) // fixed summation order: bit-identical vectors everywhere
	v := make([]float32, l.dims)
	for _, f := range feats {
		w := float32(1 + math.Log1p(tf[f])) // sublinear TF
		if f>>63 == 1 {
			w = -w // signed hashing: collisions cancel instead of piling up
		}
		v[int(f%uint64(l.dims))] += w
	}
	normalize(v)
	return v
}

// addGrams adds the character 3- and 4-grams of "<w>" to tf, each weighted
// gramWeight/√(number of grams) so long words do not drown short ones.
func addGrams(tf map[uint64]float64, w string) {
	b := "<" + w + ">"
	var starts [64]int
	offs := starts[:0]
	for i := range b {
		offs = append(offs, i)
	}
	offs = append(offs, len(b))
	runes := len(offs) - 1
	n := max(0, runes-2) + max(0, runes-3)
	if n == 0 {
		return
	}
	weight := gramWeight / math.Sqrt(float64(n))
	for size := 3; size <= 4; size++ {
		for i := 0; i+size <= runes; i++ {
			tf[fnv64("g:", b[offs[i]:offs[i+size]], "", "")] += weight
		}
	}
}

// fnv64 is FNV-1a over the concatenation of its parts, without allocating.
func fnv64(a, b, c, d string) uint64 {
	const offset, prime = 14695981039346656037, 1099511628211
	h := uint64(offset)
	for _, s := range [4]string{a, b, c, d} {
		for i := 0; i < len(s); i++ {
			h ^= uint64(s[i])
			h *= prime
		}
	}
	return h
}

// Words splits text into lowercase, stemmed words without stopwords. It
// splits on anything but letters and digits and on camelCase humps
// ("useEffect" → "use", "effect"), keeping the joined form too.
func Words(text string) []string {
	var out []string
	for _, tok := range strings.FieldsFunc(text, func(r rune) bool { return !unicode.IsLetter(r) && !unicode.IsDigit(r) }) {
		parts := splitCamel(tok)
		if len(parts) > 1 {
			out = appendWord(out, strings.ToLower(tok))
		}
		for _, p := range parts {
			out = appendWord(out, strings.ToLower(p))
		}
	}
	return out
}

func appendWord(out []string, w string) []string {
	if len(w) < 2 && !unicode.IsDigit(rune(w[0])) || stopwords[w] {
		return out
	}
	return append(out, Stem(w))
}

// splitCamel splits "useEffectHook" into "use", "Effect", "Hook"; runs of
// capitals stay together ("HTTPServer" → "HTTP", "Server").
func splitCamel(s string) []string {
	rs := []rune(s)
	var parts []string
	start := 0
	for i := 1; i < len(rs); i++ {
		lowerToUpper := unicode.IsLower(rs[i-1]) && unicode.IsUpper(rs[i])
		acronymEnd := i+1 < len(rs) && unicode.IsUpper(rs[i-1]) && unicode.IsUpper(rs[i]) && unicode.IsLower(rs[i+1])
		if lowerToUpper || acronymEnd {
			parts = append(parts, string(rs[start:i]))
			start = i
		}
	}
	return append(parts, string(rs[start:]))
}

// Stem strips common English inflections: plurals, -ing, -ed, -ly. It is
// deliberately light: "conditions" → "condition", "racing" → "rac",
// "races" → "rac", "raced" → "rac".
func Stem(w string) string {
	n := len(w)
	switch {
	case n > 4 && strings.HasSuffix(w, "ies"):
		return w[:n-3] + "y"
	case n > 4 && strings.HasSuffix(w, "sses"):
		return w[:n-2]
	case n > 5 && strings.HasSuffix(w, "ing"):
		return trimE(w[:n-3])
	case n > 4 && strings.HasSuffix(w, "ed"):
		return trimE(w[:n-2])
	case n > 4 && strings.HasSuffix(w, "ly"):
		return w[:n-2]
	case n > 3 && strings.HasSuffix(w, "es") && !strings.HasSuffix(w, "ses"):
		return trimE(w[:n-1])
	case n > 3 && strings.HasSuffix(w, "s") && !strings.HasSuffix(w, "ss") && !strings.HasSuffix(w, "us"):
		return trimE(w[:n-1])
	}
	return trimE(w)
}

// trimE drops a final "e" so "race", "races", "raced", "racing" agree.
func trimE(w string) string {
	if len(w) > 3 && strings.HasSuffix(w, "e") {
		return w[:len(w)-1]
	}
	return w
}

// stopwords are English function words that carry no topic.
var stopwords = func() map[string]bool {
	m := map[string]bool{}
	for _, w := range strings.Fields(`a an and are as at be been but by can could did do does for from
		had has have how i if in into is it its me my no not of on or our so than that the their them
		then there these they this those to too us was we were what when where which while who why will
		with would you your about after all also any because before being both each few more most other
		over same should some such only own very just now up out off again further once here`) {
		m[w] = true
	}
	return m
}()
