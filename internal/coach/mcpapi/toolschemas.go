package mcpapi

import (
	"encoding/json"
	"fmt"
	"sync"

	"github.com/google/jsonschema-go/jsonschema"
)

//go:generate go test -run ^TestToolSchemasGenerated$ . -args -update-schemas

// toolSchemaJSON is one tool's schemas as generated into
// toolschemas_gen.go: the JSON that inferring them from the types and
// marshalling them gives (what tools/list advertises), for the In and Out
// types named.
type toolSchemaJSON struct {
	inType, outType string // reflect.Type.String() of In and Out
	in, out         string // out is "" when the tool advertises none
}

// generatedInput is the check of arguments against a generated input
// schema: the flat check and whether it has defaults are read from the
// JSON now; the schema is resolved when a call first needs it.
func generatedInput(raw string) inputSchema {
	b := []byte(raw)
	return inputSchema{
		resolved:    &lazyResolved{build: func() (*jsonschema.Resolved, error) { return resolveJSON(b) }},
		hasDefaults: hasDefaults(b),
		flat:        compileFlatJSON(b),
	}
}

// resolveJSON parses and resolves a schema, with its defaults validated
// as at registration.
func resolveJSON(raw []byte) (*jsonschema.Resolved, error) {
	var sch jsonschema.Schema
	if err := json.Unmarshal(raw, &sch); err != nil {
		return nil, fmt.Errorf("mcpapi: parse generated schema: %w", err)
	}
	r, err := sch.Resolve(&jsonschema.ResolveOptions{ValidateDefaults: true})
	if err != nil {
		return nil, fmt.Errorf("mcpapi: resolve generated schema: %w", err)
	}
	return r, nil
}

// lazyResolved is a schema resolved once, on first use; safe for
// concurrent use. Its methods are [jsonschema.Resolved]'s, failing with
// the resolution's error if it failed (never for a generated schema:
// TestToolSchemasGenerated resolves each).
type lazyResolved struct {
	once  sync.Once
	build func() (*jsonschema.Resolved, error)
	r     *jsonschema.Resolved
	err   error
}

// resolvedNow is a lazyResolved that is already resolved.
func resolvedNow(r *jsonschema.Resolved) *lazyResolved {
	l := &lazyResolved{r: r}
	l.once.Do(func() {})
	return l
}

func (l *lazyResolved) get() (*jsonschema.Resolved, error) {
	l.once.Do(func() {
		l.r, l.err = l.build()
		l.build = nil
	})
	return l.r, l.err
}

// Validate is [jsonschema.Resolved.Validate].
func (l *lazyResolved) Validate(instance any) error {
	r, err := l.get()
	if err != nil {
		return err
	}
	return r.Validate(instance)
}

// ApplyDefaults is [jsonschema.Resolved.ApplyDefaults].
func (l *lazyResolved) ApplyDefaults(instancep any) error {
	r, err := l.get()
	if err != nil {
		return err
	}
	return r.ApplyDefaults(instancep)
}
