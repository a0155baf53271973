package memory

import (
	"encoding/json"
	"testing"
)

// FuzzQueryAnswer feeds arbitrary ChromaDB query answers to the decoder
// QueryMemories uses: ragged or odd columns must never panic.
func FuzzQueryAnswer(f *testing.F) {
	for _, seed := range []string{
		`{"ids":[["a","b"]],"documents":[["A",null]],"metadatas":[[{"project":"p","n":3},null]],"distances":[[0.1,0.2]]}`,
		`{"ids":[["a"]],"documents":[],"metadatas":[[]],"distances":null}`,
		`{"ids":[]}`, `{}`, `null`,
	} {
		f.Add([]byte(seed))
	}
	f.Fuzz(func(t *testing.T, body []byte) {
		var res struct {
			IDs       [][]string         `json:"ids"`
			Documents [][]*string        `json:"documents"`
			Metadatas [][]map[string]any `json:"metadatas"`
			Distances [][]float64        `json:"distances"`
		}
		if json.Unmarshal(body, &res) != nil {
			return
		}
		out := queryResults(res.IDs, res.Documents, res.Metadatas, res.Distances)
		if len(res.IDs) > 0 && len(out) != len(res.IDs[0]) {
			t.Errorf("got %d results for %d ids", len(out), len(res.IDs[0]))
		}
	})
}
