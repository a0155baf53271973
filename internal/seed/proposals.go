package seed

import (
	"crypto/rand"
	"errors"
	"fmt"
	"sort"
	"strings"
	"unicode"

	"github.com/paige-dev/paige/internal/redact"
)

// MinIDPrefix is the shortest id prefix [ResolveID] accepts.
const MinIDPrefix = 4

// Errors reported by id resolution and proposal decisions.
var (
	ErrIDTooShort   = errors.New("seed: id prefix too short")
	ErrIDNotFound   = errors.New("seed: no match")
	ErrIDAmbiguous  = errors.New("seed: ambiguous id prefix")
	ErrNotPending   = errors.New("seed: proposal is not pending")
	ErrInvalidInput = errors.New("seed: invalid input")
)

// ResolveID finds the one id in ids that equals prefix or, failing that,
// starts with it. what names the kind of thing in error messages.
func ResolveID(ids []string, prefix, what string) (string, error) {
	for _, id := range ids {
		if id == prefix {
			return id, nil
		}
	}
	if len(prefix) < MinIDPrefix {
		return "", fmt.Errorf("%w: %q: use at least %d characters", ErrIDTooShort, prefix, MinIDPrefix)
	}
	var matches []string
	for _, id := range ids {
		if strings.HasPrefix(id, prefix) {
			matches = append(matches, id)
		}
	}
	switch len(matches) {
	case 0:
		return "", fmt.Errorf("%w: no %s matches %q", ErrIDNotFound, what, prefix)
	case 1:
		return matches[0], nil
	}
	sort.Strings(matches)
	return "", fmt.Errorf("%w %q matches %d %ss: %s", ErrIDAmbiguous, prefix, len(matches), what, strings.Join(matches, ", "))
}

// NewID returns a random 12-character lowercase base-36 id; random (not
// time-ordered) so that short prefixes tell ids apart.
func NewID() string {
	const alphabet = "0123456789abcdefghijklmnopqrstuvwxyz"
	b := make([]byte, 12)
	_, _ = rand.Read(b) // crypto/rand.Read never fails
	for i := range b {
		b[i] = alphabet[int(b[i])%len(alphabet)]
	}
	return string(b)
}

// NormalizeContent is the key duplicate detection compares: lower case,
// whitespace collapsed, trailing punctuation removed.
func NormalizeContent(s string) string {
	s = strings.ToLower(strings.Join(strings.Fields(s), " "))
	return strings.TrimRightFunc(s, func(r rune) bool { return unicode.IsPunct(r) || unicode.IsSpace(r) })
}

// knownContent returns the normalized content of every learning and every
// pending or rejected proposal (a rejected idea should not come back).
func knownContent(s *Seed) map[string]bool {
	seen := map[string]bool{}
	for _, cat := range [][]Learning{s.Learned.Patterns, s.Learned.Insights, s.Learned.SelfKnowledge} {
		for _, l := range cat {
			seen[NormalizeContent(l.Content)] = true
		}
	}
	for _, p := range s.State.Proposals {
		if p.Status != StatusAccepted {
			seen[NormalizeContent(p.Content)] = true
		}
	}
	return seen
}

// MergeProposals appends to s the proposals that are not duplicates of an
// existing learning, a pending or rejected proposal, or an earlier proposal
// in the batch, filling in a missing ID, Status (pending) and ExtractedAt
// (now). Content and Source are redacted first (internal/redact), so no
// secret reaches seed.json or its git history. It returns how many were added; s is unchanged when a proposal is
// invalid (empty content or source, unknown type).
func MergeProposals(s *Seed, proposals []Proposal, now string) (int, error) {
	seen := knownContent(s)
	var add []Proposal
	for i, p := range proposals {
		p.Content, p.Source = redact.String(p.Content), redact.String(p.Source)
		if redact.Blank(p.Content) || strings.TrimSpace(p.Source) == "" || s.Learned.category(p.Type) == nil {
			return 0, fmt.Errorf("%w: proposal %d needs content, source and a type of pattern, insight or self_knowledge", ErrInvalidInput, i)
		}
		key := NormalizeContent(p.Content)
		if seen[key] {
			continue
		}
		seen[key] = true
		if p.ID == "" {
			p.ID = NewID()
		}
		if p.Status == "" {
			p.Status = StatusPending
		}
		if p.ExtractedAt == "" {
			p.ExtractedAt = now
		}
		add = append(add, p)
	}
	s.State.Proposals = append(s.State.Proposals, add...)
	return len(add), nil
}

// AddProposals adds proposals to the seed at path (see [MergeProposals]) and
// commits "Learn: N new proposals" when any were added. It is the entry point
// for extraction (learn → seed).
func AddProposals(path string, proposals []Proposal, opts *Options) (added int, err error) {
	_, _, err = Update(path, opts, CategoryLearn, func(s *Seed) (string, error) {
		n, err := MergeProposals(s, proposals, FormatTime(opts.now()))
		added = n
		if err != nil || n == 0 {
			return "", err
		}
		return fmt.Sprintf("%d new proposal%s", n, plural(n)), nil
	})
	return added, err
}

func plural(n int) string {
	if n == 1 {
		return ""
	}
	return "s"
}

// PendingIDs returns the ids of pending proposals in file order.
func PendingIDs(s *Seed) []string {
	var ids []string
	for _, p := range s.State.Proposals {
		if p.Status == StatusPending {
			ids = append(ids, p.ID)
		}
	}
	return ids
}

// Decide accepts or rejects the pending proposal whose id matches idPrefix
// (see [ResolveID]) in s. Accepting adds a confirmed learning with the
// proposal's id, content and source. Extraction stats are updated.
func Decide(s *Seed, idPrefix string, accept bool, now string) (Proposal, error) {
	ids := make([]string, len(s.State.Proposals))
	for i, p := range s.State.Proposals {
		ids[i] = p.ID
	}
	id, err := ResolveID(ids, idPrefix, "proposal")
	if err != nil {
		return Proposal{}, err
	}
	for i := range s.State.Proposals {
		p := &s.State.Proposals[i]
		if p.ID != id {
			continue
		}
		if p.Status != StatusPending {
			return *p, fmt.Errorf("%w: %s is %s", ErrNotPending, p.ID, p.Status)
		}
		decide(s, p, accept, now)
		return *p, nil
	}
	return Proposal{}, fmt.Errorf("%w: no proposal matches %q", ErrIDNotFound, idPrefix)
}

func decide(s *Seed, p *Proposal, accept bool, now string) {
	p.DecidedAt = now
	if s.State.ExtractionStats == nil {
		s.State.ExtractionStats = &ExtractionStats{}
	}
	st := s.State.ExtractionStats
	byType := map[string]*Counts{TypePattern: &st.ByType.Pattern, TypeInsight: &st.ByType.Insight, TypeSelfKnowledge: &st.ByType.SelfKnowledge}[p.Type]
	bump := func(c *Counts, by float64) {
		if accept {
			c.Accepted += by
		} else {
			c.Rejected += by
		}
	}
	if accept {
		p.Status = StatusAccepted
		st.Accepted++
		cat := s.Learned.category(p.Type)
		*cat = append(*cat, Learning{ID: p.ID, Content: p.Content, Source: p.Source,
			ExtractedAt: p.ExtractedAt, ConfirmedAt: now, Confirmed: true, Tags: []string{}})
	} else {
		p.Status = StatusRejected
		st.Rejected++
	}
	if byType != nil {
		bump(byType, 1)
	}
	if p.Confidence != nil {
		bump(&st.ConfidenceSum, *p.Confidence)
		bump(&st.ConfidenceCount, 1)
	}
}

// DecideAll accepts or rejects every pending proposal and returns how many.
func DecideAll(s *Seed, accept bool, now string) int {
	n := 0
	for i := range s.State.Proposals {
		if s.State.Proposals[i].Status == StatusPending {
			decide(s, &s.State.Proposals[i], accept, now)
			n++
		}
	}
	return n
}

// CleanRejected removes rejected proposals and returns how many.
func CleanRejected(s *Seed) int {
	kept := s.State.Proposals[:0:0]
	for _, p := range s.State.Proposals {
		if p.Status != StatusRejected {
			kept = append(kept, p)
		}
	}
	n := len(s.State.Proposals) - len(kept)
	s.State.Proposals = kept
	return n
}

// AcceptProposal accepts the pending proposal matching idPrefix in the seed
// at path and commits "Confirm: …".
func AcceptProposal(path, idPrefix string, opts *Options) (Proposal, []string, error) {
	return decideAt(path, idPrefix, true, opts)
}

// RejectProposal rejects the pending proposal matching idPrefix in the seed
// at path and commits "Reject: …".
func RejectProposal(path, idPrefix string, opts *Options) (Proposal, []string, error) {
	return decideAt(path, idPrefix, false, opts)
}

func decideAt(path, idPrefix string, accept bool, opts *Options) (Proposal, []string, error) {
	category, verb := CategoryReject, "rejected"
	if accept {
		category, verb = CategoryConfirm, "accepted"
	}
	var got Proposal
	_, warnings, err := Update(path, opts, category, func(s *Seed) (string, error) {
		p, err := Decide(s, idPrefix, accept, FormatTime(opts.now()))
		if err != nil {
			return "", err
		}
		got = p
		return fmt.Sprintf("%s %s %s %q", verb, p.Type, p.ID, clip(p.Content, 60)), nil
	})
	return got, warnings, err
}

// clip shortens s to at most n runes, marking a cut with "...".
func clip(s string, n int) string {
	r := []rune(s)
	if n <= 0 || len(r) <= n {
		return s
	}
	if n <= 3 {
		return string(r[:n])
	}
	return string(r[:n-3]) + "..."
}

// AddLearning appends a confirmed learning of type typ (pattern, insight or
// self_knowledge) with source "manual" to s and returns it. The content is
// redacted (internal/redact) before it is kept.
func AddLearning(s *Seed, typ, content, now string) (Learning, error) {
	cat := s.Learned.category(typ)
	content = strings.TrimSpace(redact.String(content))
	if cat == nil || redact.Blank(content) {
		return Learning{}, fmt.Errorf("%w: need a type of pattern, insight or self_knowledge and non-empty content", ErrInvalidInput)
	}
	l := Learning{ID: NewID(), Content: content, Source: "manual", ExtractedAt: now, ConfirmedAt: now, Confirmed: true, Tags: []string{}}
	*cat = append(*cat, l)
	return l, nil
}

// Forget removes the learning whose id matches idPrefix (see [ResolveID])
// from s and returns it.
func Forget(s *Seed, idPrefix string) (Learning, error) {
	cats := []*[]Learning{&s.Learned.Patterns, &s.Learned.Insights, &s.Learned.SelfKnowledge}
	var ids []string
	for _, c := range cats {
		for _, l := range *c {
			ids = append(ids, l.ID)
		}
	}
	id, err := ResolveID(ids, idPrefix, "learning")
	if err != nil {
		return Learning{}, err
	}
	for _, c := range cats {
		for i, l := range *c {
			if l.ID == id {
				*c = append((*c)[:i:i], (*c)[i+1:]...)
				return l, nil
			}
		}
	}
	return Learning{}, fmt.Errorf("%w: no learning matches %q", ErrIDNotFound, idPrefix)
}
