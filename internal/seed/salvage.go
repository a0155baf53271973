package seed

import (
	"encoding/json"
	"sort"
	"strconv"
	"strings"
	"time"
)

// Problem is one invalid value in a seed: where it is (a dotted JSON path as
// in [ValidationError]), why it is invalid, and what [Salvage] (and so
// [Repair]) does with it.
type Problem struct {
	Path   string `json:"path"`
	Reason string `json:"reason"`
	Code   string `json:"code"`
	// Fix says what repair does: e.g. "replaced with the default", "dropped
	// the field", "dropped the learning".
	Fix string `json:"fix"`
}

// Fixes [Salvage] applies.
const (
	FixDefault      = "replaced with the default"
	FixDropField    = "dropped the field (it is optional)"
	FixDropLearning = "dropped the learning (no usable content)"
	FixDropProposal = "dropped the proposal (no usable content or type)"
	FixDropItem     = "dropped the item"
	FixNewID        = "replaced with a new id"
	FixUnknown      = `replaced with "unknown"`
	FixPending      = `replaced with "pending" (asked again)`
	FixNow          = "replaced with the repair time"
	FixNormalized   = "converted to UTC"
)

// maxSalvagePasses bounds the validate-and-fix loop; every pass fixes every
// problem it sees, so two passes suffice (the second only when the version
// itself was invalid and hid the structural problems).
const maxSalvagePasses = 4

// Salvage takes a decoded seed object (already merged with the defaults,
// see [MergeWithDefaults]) and fixes every invalid value, keeping every valid
// one: invalid identity values and broken sections take their defaults,
// invalid optional fields are dropped, a learning or proposal without usable
// content (or a proposal of unknown type) is dropped, other invalid required
// fields take a safe value (a new id, "unknown", "pending", the repair time
// now). It returns the fixed object (root is modified in place), the problems
// found, and whether the result validates. A wrong major version is never
// salvaged (ok is false). Salvage is pure apart from new ids.
func Salvage(root map[string]any, now time.Time) (fixed map[string]any, problems []Problem, ok bool) {
	for pass := 0; pass < maxSalvagePasses; pass++ {
		v := Validate(root)
		if v.Valid {
			return root, problems, true
		}
		drops := map[string][]int{}
		for _, e := range v.Errors {
			if e.Code == CodeVersionMismatch {
				return root, problems, false
			}
			fix := fixAt(root, splitPath(e.Path), now, drops)
			problems = append(problems, Problem{Path: e.Path, Reason: e.Message, Code: e.Code, Fix: fix})
		}
		applyDrops(root, drops)
	}
	return root, problems, Validate(root).Valid
}

func splitPath(p string) []string {
	segs := strings.Split(p, ".")
	return segs[1:] // drop "$"
}

// fixAt repairs the value at segs and returns what it did; element drops are
// recorded in drops (array path → indices) and applied after all fixes so
// indices stay valid.
func fixAt(root map[string]any, segs []string, now time.Time, drops map[string][]int) string {
	n := len(segs)
	switch {
	case n == 0:
		return "cannot be repaired"
	case segs[0] == "version":
		root["version"] = DefaultVersion
		return FixDefault + " " + DefaultVersion
	case n >= 4 && segs[0] == "learned":
		return fixElementField(root, segs, now, drops, learningFix)
	case n >= 4 && segs[0] == "state" && segs[1] == "proposals":
		return fixElementField(root, segs, now, drops, proposalFix)
	case n == 3 && (segs[0] == "learned" || segs[1] == "proposals" || segs[1] == "activeProjects"):
		dropLater(drops, segs[:2], segs[2])
		return dropFix(segs[0], segs[1])
	case n == 2 && segs[0] == "state" && (segs[1] == "lastSessionId" || segs[1] == "lastSessionAt" || segs[1] == "checkpointRef"):
		deleteAt(root, segs)
		return FixDropField
	case n >= 2 && segs[0] == "state" && segs[1] == "extractionStats":
		setAt(root, segs, valueAt(zeroStatsTree(), segs[2:]))
		return FixDefault
	}
	setAt(root, segs, valueAt(defaultTree(), segs))
	return FixDefault
}

func dropFix(section, key string) string {
	switch {
	case section == "learned":
		return FixDropLearning
	case key == "proposals":
		return FixDropProposal
	}
	return FixDropItem
}

// fieldFix fixes one field of an element: it returns the fix, or "" to drop
// the whole element.
type fieldFix func(elem map[string]any, field string, now time.Time) string

// fixElementField fixes segs = [section, key, index, field, (tag index)].
func fixElementField(root map[string]any, segs []string, now time.Time, drops map[string][]int, fix fieldFix) string {
	elem, _ := valueAt(root, segs[:3]).(map[string]any)
	if elem == nil {
		return FixDefault
	}
	if len(segs) == 5 && segs[3] == "tags" {
		dropLater(drops, segs[:4], segs[4])
		return FixDropItem
	}
	if f := fix(elem, segs[3], now); f != "" {
		return f
	}
	dropLater(drops, segs[:2], segs[2])
	return dropFix(segs[0], segs[1])
}

func learningFix(elem map[string]any, field string, now time.Time) string {
	switch field {
	case "id":
		elem[field] = NewID()
		return FixNewID
	case "source":
		elem[field] = "unknown"
		return FixUnknown
	case "extractedAt":
		return fixTime(elem, field, now, true)
	case "confirmedAt":
		return fixTime(elem, field, now, false)
	case "confirmed":
		elem[field] = false
		return FixDefault + " (false)"
	case "tags":
		elem[field] = []any{}
		return FixDefault + " (no tags)"
	}
	return "" // content: nothing left worth keeping
}

func proposalFix(elem map[string]any, field string, now time.Time) string {
	switch field {
	case "id", "source", "extractedAt":
		return learningFix(elem, field, now)
	case "status":
		elem[field] = StatusPending
		return FixPending
	case "decidedAt":
		return fixTime(elem, field, now, false)
	case "method", "confidence":
		delete(elem, field)
		return FixDropField
	}
	return "" // type, content
}

// fixTime converts a parseable time with an offset or without seconds to the
// seed's UTC form; otherwise a required time becomes now and an optional one
// is dropped.
func fixTime(elem map[string]any, field string, now time.Time, required bool) string {
	if s, ok := elem[field].(string); ok {
		for _, layout := range []string{time.RFC3339Nano, "2006-01-02T15:04Z07:00", "2006-01-02T15:04:05", "2006-01-02"} {
			if t, err := time.Parse(layout, s); err == nil {
				elem[field] = FormatTime(t)
				return FixNormalized
			}
		}
	}
	if !required {
		delete(elem, field)
		return FixDropField
	}
	elem[field] = FormatTime(now)
	return FixNow
}

func dropLater(drops map[string][]int, arrayPath []string, index string) {
	i, err := strconv.Atoi(index)
	if err != nil {
		return
	}
	key := strings.Join(arrayPath, ".")
	drops[key] = append(drops[key], i)
}

// applyDrops removes the recorded elements, each array once, deepest arrays
// first so a dropped tag never shifts the learnings that hold it.
func applyDrops(root map[string]any, drops map[string][]int) {
	keys := make([]string, 0, len(drops))
	for k := range drops {
		keys = append(keys, k)
	}
	sort.Slice(keys, func(i, j int) bool { return strings.Count(keys[i], ".") > strings.Count(keys[j], ".") })
	for _, key := range keys {
		idx := drops[key]
		segs := strings.Split(key, ".")
		arr, ok := valueAt(root, segs).([]any)
		if !ok {
			continue
		}
		gone := map[int]bool{}
		for _, i := range idx {
			gone[i] = true
		}
		kept := make([]any, 0, len(arr))
		for i, v := range arr {
			if !gone[i] {
				kept = append(kept, v)
			}
		}
		setAt(root, segs, kept)
	}
}

// valueAt returns the value at segs below v, or nil.
func valueAt(v any, segs []string) any {
	for _, s := range segs {
		switch c := v.(type) {
		case map[string]any:
			v = c[s]
		case []any:
			i, err := strconv.Atoi(s)
			if err != nil || i < 0 || i >= len(c) {
				return nil
			}
			v = c[i]
		default:
			return nil
		}
	}
	return v
}

// setAt sets the value at segs (whose parent must exist); a nil value
// deletes a map key.
func setAt(root map[string]any, segs []string, val any) {
	switch parent := valueAt(root, segs[:len(segs)-1]).(type) {
	case map[string]any:
		if val == nil {
			delete(parent, segs[len(segs)-1])
			return
		}
		parent[segs[len(segs)-1]] = val
	case []any:
		if i, err := strconv.Atoi(segs[len(segs)-1]); err == nil && i >= 0 && i < len(parent) {
			parent[i] = val
		}
	}
}

func deleteAt(root map[string]any, segs []string) { setAt(root, segs, nil) }

// defaultTree is [Defaults] as a decoded JSON tree (fresh on every call, so
// callers may keep parts of it).
func defaultTree() map[string]any { return toTree(Defaults()) }

// zeroStatsTree is a zero [ExtractionStats] as a decoded JSON tree.
func zeroStatsTree() map[string]any { return toTree(ExtractionStats{}) }

func toTree(v any) map[string]any {
	b, err := json.Marshal(v)
	if err != nil {
		return map[string]any{}
	}
	t, err := decodeAny(b)
	m, _ := t.(map[string]any)
	if err != nil || m == nil {
		return map[string]any{}
	}
	return m
}
