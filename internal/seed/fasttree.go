package seed

import (
	"encoding/json"
	"strconv"
	"unicode/utf8"
)

// seedFromTree converts a salvaged seed document (see salvageBytes) into
// the [Seed] that encoding it with encoding/json and decoding the bytes
// with [Decode] gives, without either: in a cold process (the SessionStart
// hook's, once per session) that round trip's reflection costs more than
// the rest of reading the seed.
//
// It takes only the plain shape: every key exactly a field's JSON name
// (encoding/json would also match other cases), no unknown top-level key
// (those go to Extra), no null, every value of its field's type, strings
// valid UTF-8. For anything else ok is false and the caller takes the
// encoding/json path, so answers never differ; FuzzSeedFromTree checks that
// whatever it accepts equals the round trip's result.
func seedFromTree(tree map[string]any) (s *Seed, ok bool) {
	r := treeReader{ok: true}
	s = &Seed{}
	for k, v := range tree {
		switch k {
		case "version":
			s.Version = r.str(v)
		case "identity":
			r.identity(&s.Identity, v)
		case "learned":
			r.learned(&s.Learned, v)
		case "state":
			r.state(&s.State, v)
		default:
			return nil, false
		}
	}
	if !r.ok {
		return nil, false
	}
	normalize(s)
	return s, true
}

// treeReader reads typed values out of a decoded document; ok turns false
// at the first value it does not take.
type treeReader struct{ ok bool }

func (r *treeReader) str(v any) string {
	s, ok := v.(string)
	if !ok || !utf8.ValidString(s) {
		r.ok = false
	}
	return s
}

func (r *treeReader) boolean(v any) bool {
	b, ok := v.(bool)
	r.ok = r.ok && ok
	return b
}

func (r *treeReader) number(v any) float64 {
	n, ok := v.(json.Number)
	f, err := strconv.ParseFloat(string(n), 64)
	r.ok = r.ok && ok && err == nil
	return f
}

func (r *treeReader) object(v any) map[string]any {
	m, ok := v.(map[string]any)
	r.ok = r.ok && ok
	return m
}

func (r *treeReader) list(v any) []any {
	a, ok := v.([]any)
	r.ok = r.ok && ok
	return a
}

func (r *treeReader) strings(v any) []string {
	a := r.list(v)
	out := make([]string, len(a))
	for i, e := range a {
		out[i] = r.str(e)
	}
	return out
}

func (r *treeReader) identity(id *Identity, v any) {
	for k, e := range r.object(v) {
		switch k {
		case "principalName":
			id.PrincipalName = r.str(e)
		case "aiName":
			id.AIName = r.str(e)
		case "catchphrase":
			id.Catchphrase = r.str(e)
		case "voiceId":
			id.VoiceID = r.str(e)
		case "preferences":
			for pk, pe := range r.object(e) {
				switch pk {
				case "responseStyle":
					id.Preferences.ResponseStyle = r.str(pe)
				case "timezone":
					id.Preferences.Timezone = r.str(pe)
				case "locale":
					id.Preferences.Locale = r.str(pe)
				default:
					r.ok = false
				}
			}
		default:
			r.ok = false
		}
	}
}

func (r *treeReader) learned(l *Learned, v any) {
	for k, e := range r.object(v) {
		switch k {
		case "patterns":
			l.Patterns = r.learnings(e)
		case "insights":
			l.Insights = r.learnings(e)
		case "selfKnowledge":
			l.SelfKnowledge = r.learnings(e)
		default:
			r.ok = false
		}
	}
}

func (r *treeReader) learnings(v any) []Learning {
	a := r.list(v)
	out := make([]Learning, len(a))
	for i, e := range a {
		l := &out[i]
		for k, f := range r.object(e) {
			switch k {
			case "id":
				l.ID = r.str(f)
			case "content":
				l.Content = r.str(f)
			case "source":
				l.Source = r.str(f)
			case "extractedAt":
				l.ExtractedAt = r.str(f)
			case "confirmedAt":
				l.ConfirmedAt = r.str(f)
			case "confirmed":
				l.Confirmed = r.boolean(f)
			case "tags":
				l.Tags = r.strings(f)
			default:
				r.ok = false
			}
		}
	}
	return out
}

func (r *treeReader) state(st *State, v any) {
	for k, e := range r.object(v) {
		switch k {
		case "lastSessionId":
			st.LastSessionID = r.str(e)
		case "lastSessionAt":
			st.LastSessionAt = r.str(e)
		case "proposals":
			st.Proposals = r.proposals(e)
		case "activeProjects":
			st.ActiveProjects = r.strings(e)
		case "checkpointRef":
			st.CheckpointRef = r.str(e)
		case "extractionStats":
			st.ExtractionStats = r.stats(e)
		default:
			r.ok = false
		}
	}
}

func (r *treeReader) proposals(v any) []Proposal {
	a := r.list(v)
	out := make([]Proposal, len(a))
	for i, e := range a {
		p := &out[i]
		for k, f := range r.object(e) {
			switch k {
			case "id":
				p.ID = r.str(f)
			case "type":
				p.Type = r.str(f)
			case "content":
				p.Content = r.str(f)
			case "source":
				p.Source = r.str(f)
			case "extractedAt":
				p.ExtractedAt = r.str(f)
			case "status":
				p.Status = r.str(f)
			case "method":
				p.Method = r.str(f)
			case "confidence":
				c := r.number(f)
				p.Confidence = &c
			case "decidedAt":
				p.DecidedAt = r.str(f)
			default:
				r.ok = false
			}
		}
	}
	return out
}

func (r *treeReader) stats(v any) *ExtractionStats {
	st := &ExtractionStats{}
	for k, e := range r.object(v) {
		switch k {
		case "accepted":
			st.Accepted = r.number(e)
		case "rejected":
			st.Rejected = r.number(e)
		case "byType":
			for tk, te := range r.object(e) {
				switch tk {
				case "pattern":
					st.ByType.Pattern = r.counts(te)
				case "insight":
					st.ByType.Insight = r.counts(te)
				case "self_knowledge":
					st.ByType.SelfKnowledge = r.counts(te)
				default:
					r.ok = false
				}
			}
		case "confidenceSum":
			st.ConfidenceSum = r.counts(e)
		case "confidenceCount":
			st.ConfidenceCount = r.counts(e)
		default:
			r.ok = false
		}
	}
	return st
}

func (r *treeReader) counts(v any) Counts {
	var c Counts
	for k, e := range r.object(v) {
		switch k {
		case "accepted":
			c.Accepted = r.number(e)
		case "rejected":
			c.Rejected = r.number(e)
		default:
			r.ok = false
		}
	}
	return c
}
