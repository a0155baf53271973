package llm_test

import (
	"encoding/json"
	"strings"
	"testing"

	"github.com/google/go-cmp/cmp"
	"github.com/google/jsonschema-go/jsonschema"

	"github.com/paige-dev/paige/internal/config"
	"github.com/paige-dev/paige/internal/llm"
)

type nested struct {
	Items []struct {
		Level string  `json:"level"`
		Prev  *string `json:"prev"`
		Score int     `json:"score"`
	} `json:"items"`
	Links []string `json:"links"`
	URL   string   `json:"url"`
}

func (nested) CustomizeSchema(s *jsonschema.Schema) error {
	return llm.Constrain(s,
		llm.Enum("items[].level", "low", "high"),
		llm.Enum("items[].prev", "low", "high"),
		llm.Range("items[].score", 1, 10),
		llm.MaxItems("items", 2),
		llm.Nullable("links"),
		llm.Format("url", "uri"),
	)
}

func TestSchemaForConstraintsValidate(t *testing.T) {
	s, err := llm.SchemaFor[nested]()
	if err != nil {
		t.Fatal(err)
	}
	tests := []struct {
		name string
		json string
		ok   bool
	}{
		{"valid", `{"items":[{"level":"low","prev":null,"score":3}],"links":null,"url":"https://x.dev"}`, true},
		{"nullable enum value", `{"items":[{"level":"low","prev":"high","score":3}],"links":["a"],"url":"u"}`, true},
		{"bad enum", `{"items":[{"level":"mid","prev":null,"score":3}],"links":[],"url":"u"}`, false},
		{"bad nullable enum", `{"items":[{"level":"low","prev":"mid","score":3}],"links":[],"url":"u"}`, false},
		{"score too high", `{"items":[{"level":"low","prev":null,"score":11}],"links":[],"url":"u"}`, false},
		{"score not integer", `{"items":[{"level":"low","prev":null,"score":2.5}],"links":[],"url":"u"}`, false},
		{"too many items", `{"items":[{"level":"low","prev":null,"score":1},{"level":"low","prev":null,"score":1},{"level":"low","prev":null,"score":1}],"links":[],"url":"u"}`, false},
		{"items null", `{"items":null,"links":[],"url":"u"}`, false},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			var out nested
			err := s.Validate(tt.json, &out)
			if (err == nil) != tt.ok {
				t.Errorf("Validate: got %v, want ok=%v", err, tt.ok)
			}
		})
	}
}

func TestConstrainUnknownPath(t *testing.T) {
	s, err := jsonschema.For[nested](nil)
	if err != nil {
		t.Fatal(err)
	}
	for _, path := range []string{"nope", "items[].nope", "url[]"} {
		if err := llm.Constrain(s, llm.Enum(path, "a")); err == nil {
			t.Errorf("Constrain(%q): got nil error", path)
		}
	}
}

func TestWireSchema(t *testing.T) {
	s, err := llm.SchemaFor[nested]()
	if err != nil {
		t.Fatal(err)
	}
	b, _ := json.Marshal(s.Wire)
	wire := string(b)
	for _, bad := range []string{`"minimum"`, `"maximum"`, `"maxItems"`, `"not"`, `"type":["null"`} {
		if strings.Contains(wire, bad) {
			t.Errorf("wire schema contains unsupported %s: %s", bad, wire)
		}
	}
	items := s.Wire["properties"].(map[string]any)["items"].(map[string]any)
	if got, want := items["description"], "{maxItems: 2}"; got != want {
		t.Errorf("maxItems moved to description: got %v, want %v", got, want)
	}
	item := items["items"].(map[string]any)
	if item["additionalProperties"] != false || s.Wire["additionalProperties"] != false {
		t.Errorf("objects must be closed: %s", wire)
	}
	score := item["properties"].(map[string]any)["score"].(map[string]any)
	if got, want := score["description"], "{maximum: 10, minimum: 1}"; got != want {
		t.Errorf("score description: got %v, want %v", got, want)
	}
	prev := item["properties"].(map[string]any)["prev"].(map[string]any)
	wantPrev := map[string]any{"anyOf": []any{
		map[string]any{"type": "string", "enum": []any{"low", "high"}},
		map[string]any{"type": "null"},
	}}
	if diff := cmp.Diff(wantPrev, prev); diff != "" {
		t.Errorf("nullable enum (-want +got):\n%s", diff)
	}
	if got := s.Wire["properties"].(map[string]any)["url"].(map[string]any)["format"]; got != "uri" {
		t.Errorf("supported format kept: got %v", got)
	}
}

func TestWireSchemaPure(t *testing.T) {
	in := map[string]any{"type": "object", "properties": map[string]any{
		"n":  map[string]any{"type": "integer", "minimum": float64(0)},
		"id": map[string]any{"type": "string", "format": "ulid", "maxLength": float64(3)},
		"o":  map[string]any{"oneOf": []any{map[string]any{"type": "string"}, map[string]any{"type": "integer"}}},
		"a":  map[string]any{"type": "array", "minItems": float64(2), "items": map[string]any{"type": "string"}},
	}}
	before, _ := json.Marshal(in)
	out := llm.WireSchema(in)
	after, _ := json.Marshal(in)
	if string(before) != string(after) {
		t.Errorf("WireSchema modified its input")
	}
	want := map[string]any{"type": "object", "additionalProperties": false, "properties": map[string]any{
		"n":  map[string]any{"type": "integer", "description": "{minimum: 0}"},
		"id": map[string]any{"type": "string", "description": "{format: ulid, maxLength: 3}"},
		"o":  map[string]any{"anyOf": []any{map[string]any{"type": "string"}, map[string]any{"type": "integer"}}},
		"a":  map[string]any{"type": "array", "description": "{minItems: 2}", "items": map[string]any{"type": "string"}},
	}}
	if diff := cmp.Diff(want, out); diff != "" {
		t.Errorf("(-want +got):\n%s", diff)
	}
}

func TestInputHash(t *testing.T) {
	// sha256("hello") = 2cf24dba5fb0a30e26e83b2ac5b9e29e1b161e5c1fa7425e73043362938b9824
	if got, want := llm.InputHash("hello"), "2cf24dba5fb0a30e"; got != want {
		t.Errorf("InputHash: got %q, want %q", got, want)
	}
}

func TestFromConfig(t *testing.T) {
	env := map[string]string{"ANTHROPIC_API_KEY": "k", "PAIGE_MODEL_HAIKU": "claude-haiku-x", "HOME": t.TempDir()}
	cfg, err := config.Load(func(k string) string { return env[k] })
	if err != nil {
		t.Fatal(err)
	}
	c := llm.FromConfig(cfg, nil, nil)
	if !c.Available() {
		t.Error("Available: got false with a key")
	}
	if got := c.Model(llm.Haiku); got != "claude-haiku-x" {
		t.Errorf("haiku: got %q", got)
	}
	if got := c.Model(llm.Sonnet); got != config.DefaultModelSonnet {
		t.Errorf("sonnet: got %q", got)
	}
	if c.SDK() == nil {
		t.Error("SDK: got nil")
	}
}

func FuzzValidate(f *testing.F) {
	for _, seed := range []string{`{}`, `{"items":[],"links":null,"url":""}`, `[1,2]`, `null`, `{"items":[{"level":"low"}]}`, "\x00"} {
		f.Add(seed)
	}
	s, err := llm.SchemaFor[nested]()
	if err != nil {
		f.Fatal(err)
	}
	f.Fuzz(func(t *testing.T, text string) {
		var out nested
		if err := s.Validate(text, &out); err == nil {
			for _, it := range out.Items {
				if it.Score < 1 || it.Score > 10 || (it.Level != "low" && it.Level != "high") {
					t.Errorf("validated reply breaks the schema: %q", text)
				}
			}
		}
	})
}
