package seed

import (
	"encoding/json"
	"strconv"
	"strings"
)

// checker collects structural errors in schema order. Paths are built only
// when an error is recorded, so valid seeds validate without allocation per
// field.
type checker struct{ errs []ValidationError }

func (c *checker) add(parent, key, msg, code string) {
	c.errs = append(c.errs, ValidationError{Path: parent + "." + key, Message: msg, Code: code})
}

// field returns obj[key], recording a missing-field error when required and
// absent. ok is false when there is nothing further to check.
func (c *checker) field(obj map[string]any, parent, key string, required bool) (any, bool) {
	v, present := obj[key]
	if !present {
		if required {
			c.add(parent, key, "Missing required field: "+key, CodeMissingField)
		}
		return nil, false
	}
	return v, true
}

func (c *checker) typeErr(parent, key, want string, got any) {
	c.add(parent, key, "Expected "+want+", received "+typeName(got), CodeInvalidType)
}

func (c *checker) object(obj map[string]any, parent, key string) (map[string]any, string) {
	v, ok := c.field(obj, parent, key, true)
	if !ok {
		return nil, ""
	}
	m, isObj := v.(map[string]any)
	if !isObj {
		c.typeErr(parent, key, "object", v)
		return nil, ""
	}
	return m, parent + "." + key
}

func (c *checker) str(obj map[string]any, parent, key string, required, nonEmpty bool) {
	if s, ok := c.stringField(obj, parent, key, required); ok && nonEmpty && s == "" {
		c.add(parent, key, "String must contain at least 1 character(s)", CodeTooSmall)
	}
}

func (c *checker) datetime(obj map[string]any, parent, key string, required bool) {
	if s, ok := c.stringField(obj, parent, key, required); ok && !IsDatetime(s) {
		c.add(parent, key, "Invalid datetime", CodeInvalidString)
	}
}

// stringField returns obj[key] when it is a string, recording a missing
// field or a wrong type; ok is false when there is nothing further to check.
func (c *checker) stringField(obj map[string]any, parent, key string, required bool) (string, bool) {
	v, ok := c.field(obj, parent, key, required)
	if !ok {
		return "", false
	}
	s, isStr := v.(string)
	if !isStr {
		c.typeErr(parent, key, "string", v)
	}
	return s, isStr
}

func (c *checker) enum(obj map[string]any, parent, key string, required bool, options ...string) {
	v, ok := c.field(obj, parent, key, required)
	if !ok {
		return
	}
	s, isStr := v.(string)
	for _, o := range options {
		if isStr && s == o {
			return
		}
	}
	quoted := make([]string, len(options))
	for i, o := range options {
		quoted[i] = "'" + o + "'"
	}
	got := typeName(v)
	if isStr {
		got = "'" + s + "'"
	}
	c.add(parent, key, "Invalid enum value. Expected "+strings.Join(quoted, " | ")+", received "+got, CodeInvalidEnum)
}

func (c *checker) boolean(obj map[string]any, parent, key string) {
	if v, ok := c.field(obj, parent, key, true); ok {
		if _, isBool := v.(bool); !isBool {
			c.typeErr(parent, key, "boolean", v)
		}
	}
}

func (c *checker) number(obj map[string]any, parent, key string, required bool) {
	if v, ok := c.field(obj, parent, key, required); ok {
		if _, isNum := asFloat(v); !isNum {
			c.typeErr(parent, key, "number", v)
		}
	}
}

func asFloat(v any) (float64, bool) {
	switch n := v.(type) {
	case float64:
		return n, true
	case json.Number:
		f, err := n.Float64()
		return f, err == nil
	}
	return 0, false
}

// array returns obj[key] as an array, recording type errors.
func (c *checker) array(obj map[string]any, parent, key string) ([]any, string, bool) {
	v, ok := c.field(obj, parent, key, true)
	if !ok {
		return nil, "", false
	}
	a, isArr := v.([]any)
	if !isArr {
		c.typeErr(parent, key, "array", v)
		return nil, "", false
	}
	return a, parent + "." + key, true
}

func (c *checker) stringArray(obj map[string]any, parent, key string) {
	a, path, ok := c.array(obj, parent, key)
	if !ok {
		return
	}
	for i, v := range a {
		if _, isStr := v.(string); !isStr {
			c.add(path, strconv.Itoa(i), "Expected string, received "+typeName(v), CodeInvalidType)
		}
	}
}

// objects walks an array of objects, calling each for every element.
func (c *checker) objects(obj map[string]any, parent, key string, each func(m map[string]any, path string)) {
	a, path, ok := c.array(obj, parent, key)
	if !ok {
		return
	}
	for i, v := range a {
		m, isObj := v.(map[string]any)
		if !isObj {
			c.add(path, strconv.Itoa(i), "Expected object, received "+typeName(v), CodeInvalidType)
			continue
		}
		each(m, path+"."+strconv.Itoa(i))
	}
}

func (c *checker) identity(root map[string]any) {
	id, p := c.object(root, "$", "identity")
	if id == nil {
		return
	}
	c.str(id, p, "principalName", true, true)
	c.str(id, p, "aiName", true, true)
	c.str(id, p, "catchphrase", true, true)
	c.str(id, p, "voiceId", true, false)
	prefs, pp := c.object(id, p, "preferences")
	if prefs == nil {
		return
	}
	c.enum(prefs, pp, "responseStyle", true, "concise", "detailed", "adaptive")
	c.str(prefs, pp, "timezone", true, false)
	c.str(prefs, pp, "locale", true, false)
}

func (c *checker) learned(root map[string]any) {
	l, p := c.object(root, "$", "learned")
	if l == nil {
		return
	}
	for _, key := range []string{"patterns", "insights", "selfKnowledge"} {
		c.objects(l, p, key, c.learning)
	}
}

func (c *checker) learning(m map[string]any, p string) {
	c.str(m, p, "id", true, false)
	c.str(m, p, "content", true, true)
	c.str(m, p, "source", true, true)
	c.datetime(m, p, "extractedAt", true)
	c.datetime(m, p, "confirmedAt", false)
	c.boolean(m, p, "confirmed")
	c.stringArray(m, p, "tags")
}

func (c *checker) state(root map[string]any) {
	s, p := c.object(root, "$", "state")
	if s == nil {
		return
	}
	c.str(s, p, "lastSessionId", false, false)
	c.datetime(s, p, "lastSessionAt", false)
	c.objects(s, p, "proposals", c.proposal)
	c.stringArray(s, p, "activeProjects")
	c.str(s, p, "checkpointRef", false, false)
	if _, present := s["extractionStats"]; present {
		c.stats(s, p)
	}
}

func (c *checker) proposal(m map[string]any, p string) {
	c.str(m, p, "id", true, false)
	c.enum(m, p, "type", true, TypePattern, TypeInsight, TypeSelfKnowledge)
	c.str(m, p, "content", true, true)
	c.str(m, p, "source", true, true)
	c.datetime(m, p, "extractedAt", true)
	c.enum(m, p, "status", true, StatusPending, StatusAccepted, StatusRejected)
	c.enum(m, p, "method", false, MethodACR, MethodRegex)
	c.number(m, p, "confidence", false)
	c.datetime(m, p, "decidedAt", false)
	c.str(m, p, "project", false, false)
}

func (c *checker) counts(obj map[string]any, parent, key string) {
	m, p := c.object(obj, parent, key)
	if m != nil {
		c.number(m, p, "accepted", true)
		c.number(m, p, "rejected", true)
	}
}

func (c *checker) stats(s map[string]any, parent string) {
	st, p := c.object(s, parent, "extractionStats")
	if st == nil {
		return
	}
	c.number(st, p, "accepted", true)
	c.number(st, p, "rejected", true)
	if bt, bp := c.object(st, p, "byType"); bt != nil {
		for _, typ := range []string{TypePattern, TypeInsight, TypeSelfKnowledge} {
			c.counts(bt, bp, typ)
		}
	}
	c.counts(st, p, "confidenceSum")
	c.counts(st, p, "confidenceCount")
}
