package embedding

import "testing"

// FuzzDecodeAnswers feeds arbitrary server answers to the Ollama and OpenAI
// decoders and the vector checks: they must fail cleanly, never panic, and
// accept only well-formed, finite, same-length vectors.
func FuzzDecodeAnswers(f *testing.F) {
	for _, seed := range []string{
		`{"embeddings":[[1,2,3]]}`,
		`{"data":[{"index":0,"embedding":[0.1,0.2]}]}`,
		`{"embeddings":[[1,2],[3]]}`,
		`{"data":[{"index":5,"embedding":[]}]}`,
		`{"embeddings":[[1e40]]}`,
		`null`, `[]`, `{`,
	} {
		f.Add([]byte(seed), 1)
	}
	decoders := []func([]byte) ([][]float32, error){NewOllama("", "", nil).decode, NewOpenAI("", "", "", nil).decode}
	f.Fuzz(func(t *testing.T, body []byte, n int) {
		for _, decode := range decoders {
			vecs, err := decode(body)
			if err != nil {
				continue
			}
			if checkVectors(vecs, n) != nil {
				continue
			}
			for _, v := range vecs {
				if len(v) != len(vecs[0]) || len(v) == 0 {
					t.Fatalf("accepted ragged or empty vectors from %q", body)
				}
			}
		}
	})
}
