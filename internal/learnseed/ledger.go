package learnseed

import (
	"bufio"
	"bytes"
	"encoding/json"
	"errors"
	"fmt"
	"io/fs"
	"os"
	"path/filepath"

	"github.com/paige-dev/paige/internal/seed"
)

// LedgerFile is the ledger's file name inside the knowledge store directory.
const LedgerFile = "proposals.jsonl"

// Ledger statuses: a record's Status is one of these.
const (
	StatusProposed = "proposed"
	StatusAccepted = seed.StatusAccepted
	StatusRejected = seed.StatusRejected
)

// Record is one ledger line: what happened to the proposal made from a
// knowledge entry. The latest record of a proposal is its state.
type Record struct {
	EntryID    string `json:"entryId"`
	ProposalID string `json:"proposalId"`
	Type       string `json:"type"` // seed type
	Content    string `json:"content"`
	Status     string `json:"status"`
	At         string `json:"at"`
}

// Ledger is the append-only JSONL file of [Record]s beside a knowledge
// store. Each record is one write of one line, so concurrent appenders do
// not interleave; a torn or garbled line is skipped on read.
type Ledger struct{ Path string }

// OpenLedger returns the ledger of the knowledge store in dir.
func OpenLedger(dir string) Ledger { return Ledger{Path: filepath.Join(dir, LedgerFile)} }

// Records returns every readable record in file order; a missing file is
// no records.
func (l Ledger) Records() ([]Record, error) {
	f, err := os.Open(l.Path)
	if errors.Is(err, fs.ErrNotExist) {
		return nil, nil
	}
	if err != nil {
		return nil, err
	}
	defer f.Close()
	var out []Record
	sc := bufio.NewScanner(f)
	sc.Buffer(make([]byte, 64<<10), 16<<20)
	for sc.Scan() {
		var r Record
		if json.Unmarshal(bytes.TrimSpace(sc.Bytes()), &r) == nil && r.ProposalID != "" {
			out = append(out, r)
		}
	}
	return out, sc.Err()
}

// Append writes records, one line each.
func (l Ledger) Append(rs ...Record) error {
	if len(rs) == 0 {
		return nil
	}
	if err := os.MkdirAll(filepath.Dir(l.Path), 0o755); err != nil {
		return err
	}
	f, err := os.OpenFile(l.Path, os.O_CREATE|os.O_WRONLY|os.O_APPEND, 0o644)
	if err != nil {
		return err
	}
	defer f.Close()
	for _, r := range rs {
		b, err := json.Marshal(r)
		if err != nil {
			return err
		}
		if _, err := f.Write(append(b, '\n')); err != nil {
			return fmt.Errorf("append to %s: %w", l.Path, err)
		}
	}
	return f.Sync()
}

// Latest returns the latest record of every proposal.
func Latest(records []Record) map[string]Record {
	m := map[string]Record{}
	for _, r := range records {
		m[r.ProposalID] = r
	}
	return m
}

// Rejected returns the latest records whose status is rejected.
func Rejected(records []Record) []Record {
	var out []Record
	for _, r := range Latest(records) {
		if r.Status == StatusRejected {
			out = append(out, r)
		}
	}
	return out
}

// Sync returns the records that bring the ledger up to date with the
// user's decisions in s: a proposal still "proposed" in the ledger that the
// seed shows accepted or rejected gets that status. A proposal that has
// left the seed (`seed proposals clean`) counts as accepted when a learning
// carries its id, rejected otherwise.
func Sync(records []Record, s *seed.Seed, now string) []Record {
	status := map[string]string{}
	for _, p := range s.State.Proposals {
		status[p.ID] = p.Status
	}
	learned := map[string]bool{}
	for _, cat := range [][]seed.Learning{s.Learned.Patterns, s.Learned.Insights, s.Learned.SelfKnowledge} {
		for _, l := range cat {
			learned[l.ID] = true
		}
	}
	var out []Record
	for _, r := range Latest(records) {
		if r.Status != StatusProposed {
			continue
		}
		st, inSeed := status[r.ProposalID]
		switch {
		case inSeed && st == seed.StatusPending:
			continue
		case !inSeed && learned[r.ProposalID]:
			st = StatusAccepted
		case !inSeed:
			st = StatusRejected
		}
		r.Status, r.At = st, now
		out = append(out, r)
	}
	return out
}
