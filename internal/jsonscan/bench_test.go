package jsonscan

import (
	"encoding/json"
	"strings"
	"testing"
)

// benchText is a document of the shape the fast paths read: an object
// holding a long string with a few escapes, numbers and nested values.
var benchText = []byte(`{"type":"buffer:update","seq":12345,"content":"` +
	strings.Repeat(`func main() {\n\tfmt.Println(\"hello, world\")\n}\n`, 200) +
	`","cursor":{"line":3,"col":-1.5e3},"tags":[true,false,null,"é"]}`)

// BenchmarkValid compares Valid with json.Valid on the same text.
func BenchmarkValid(b *testing.B) {
	b.Run("jsonscan", func(b *testing.B) {
		b.SetBytes(int64(len(benchText)))
		for range b.N {
			if !Valid(benchText, 64) {
				b.Fatal("invalid")
			}
		}
	})
	b.Run("encoding-json", func(b *testing.B) {
		b.SetBytes(int64(len(benchText)))
		for range b.N {
			if !json.Valid(benchText) {
				b.Fatal("invalid")
			}
		}
	})
}

// BenchmarkString compares String with json.Unmarshal into a string.
func BenchmarkString(b *testing.B) {
	i := strings.Index(string(benchText), `"func`)
	end, _ := StringEnd(benchText, i)
	lit := benchText[i:end]
	b.Run("jsonscan", func(b *testing.B) {
		b.SetBytes(int64(len(lit)))
		for range b.N {
			if _, end := String(lit, 0); end < 0 {
				b.Fatal("invalid")
			}
		}
	})
	b.Run("encoding-json", func(b *testing.B) {
		b.SetBytes(int64(len(lit)))
		for range b.N {
			var s string
			if err := json.Unmarshal(lit, &s); err != nil {
				b.Fatal(err)
			}
		}
	})
}

// BenchmarkStringLines decodes the content of a buffer:update as the
// load tools send it: 2.6 KB of 51-byte lines, each ended by a \n escape.
func BenchmarkStringLines(b *testing.B) {
	lit, _ := json.Marshal(strings.Repeat("const value = compute(input) + 1; // line of code\n", 50))
	b.SetBytes(int64(len(lit)))
	for b.Loop() {
		if _, end := String(lit, 0); end < 0 {
			b.Fatal("invalid")
		}
	}
}
