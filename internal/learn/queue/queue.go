// Package queue is the learn queue: transcripts the Claude Code SessionEnd hook
// hands to learn, one file each in a directory shared by processes, claimed by
// exactly one worker and kept as done or failed. See [Queue] for the layout.
package queue

import (
	"crypto/sha256"
	"encoding/hex"
	"encoding/json"
	"errors"
	"fmt"
	"io/fs"
	"os"
	"path/filepath"
	"sort"
	"strings"
	"time"
)

// Item is one transcript waiting to be learned from.
type Item struct {
	TranscriptPath string    `json:"transcript_path"`
	SessionID      string    `json:"session_id"`
	Cwd            string    `json:"cwd,omitempty"`
	Reason         string    `json:"reason,omitempty"`
	Size           int64     `json:"size"` // transcript size when queued; part of the key
	QueuedAt       time.Time `json:"queued_at"`
	Error          string    `json:"error,omitempty"` // set on failed items
}

// Key identifies the transcript version: its absolute path and size. A
// session resumed and ended again has grown and is learned from again (the
// learn store drops the entries it already has); the same content never is.
func (it Item) Key() string {
	h := sha256.Sum256([]byte(fmt.Sprintf("%s\x00%d", it.TranscriptPath, it.Size)))
	return hex.EncodeToString(h[:12])
}

// Queue is the learn queue: a directory with one file per transcript.
//
// # Layout and invariants
//
//	<Dir>/<key>.json          queued, waiting for a worker
//	<Dir>/<key>.working       claimed by one worker (rename is the lock)
//	<Dir>/done/<key>.json     learned from; never queued again
//	<Dir>/failed/<key>.json   failed, with the error; kept for inspection
//	<Dir>/worker.lock         flocked by the one worker draining the queue
//
// Enqueue creates <key>.json with a hard link, which fails when the file
// exists, so one transcript version is queued at most once; Claim renames
// it, so exactly one worker processes it. A Queue is safe for use by several
// processes at once.
type Queue struct{ Dir string }

// StaleClaim is how long a claim may last before another worker takes the
// item back (its worker died).
const StaleClaim = 15 * time.Minute

// Enqueue queues the transcript at it.TranscriptPath, filling Size and
// QueuedAt. It returns false, without error, when that transcript version is
// already queued, being processed, or done.
func (q Queue) Enqueue(it Item, now time.Time) (bool, error) {
	abs, err := filepath.Abs(it.TranscriptPath)
	if err != nil {
		return false, fmt.Errorf("queue transcript: %w", err)
	}
	fi, err := os.Stat(abs)
	if err != nil {
		return false, fmt.Errorf("queue transcript: %w", err)
	}
	if !fi.Mode().IsRegular() {
		return false, fmt.Errorf("queue transcript: %s is not a regular file", abs)
	}
	it.TranscriptPath, it.Size, it.QueuedAt = abs, fi.Size(), now.UTC()
	key := it.Key()
	for _, p := range []string{q.path("done", key+".json"), q.path(key + ".working")} {
		if _, err := os.Stat(p); err == nil {
			return false, nil
		}
	}
	if err := os.MkdirAll(q.Dir, 0o755); err != nil {
		return false, fmt.Errorf("queue transcript: %w", err)
	}
	tmp, err := os.CreateTemp(q.Dir, ".tmp-*")
	if err != nil {
		return false, fmt.Errorf("queue transcript: %w", err)
	}
	defer os.Remove(tmp.Name())
	err = json.NewEncoder(tmp).Encode(it)
	if cerr := tmp.Close(); err == nil {
		err = cerr
	}
	if err != nil {
		return false, fmt.Errorf("queue transcript: %w", err)
	}
	if err := os.Link(tmp.Name(), q.path(key+".json")); err != nil {
		if errors.Is(err, fs.ErrExist) {
			return false, nil
		}
		return false, fmt.Errorf("queue transcript: %w", err)
	}
	return true, nil
}

// Claimed is an item a worker owns until it calls [Queue.Finish].
type Claimed struct {
	Item Item
	key  string
}

// Claim takes the oldest queued item, returning false when there is none.
// Items whose transcript version is already done are dropped, and claims
// older than [StaleClaim] are put back first. Unreadable item files are
// moved to failed/.
func (q Queue) Claim(now time.Time) (Claimed, bool, error) {
	q.requeueStale(now)
	names, err := filepath.Glob(q.path("*.json"))
	if err != nil {
		return Claimed{}, false, err
	}
	sort.Strings(names)
	for _, name := range names {
		key := strings.TrimSuffix(filepath.Base(name), ".json")
		working := q.path(key + ".working")
		if err := os.Rename(name, working); err != nil {
			continue // another worker won it
		}
		data, err := os.ReadFile(working)
		var it Item
		if err == nil {
			err = json.Unmarshal(data, &it)
		}
		if err != nil {
			it.Error = fmt.Sprintf("unreadable queue item: %v", err)
			_ = q.write("failed", key, it)
			os.Remove(working)
			continue
		}
		if _, err := os.Stat(q.path("done", key+".json")); err == nil {
			os.Remove(working)
			continue
		}
		return Claimed{Item: it, key: key}, true, nil
	}
	return Claimed{}, false, nil
}

// Finish records the outcome of a claimed item: done, or failed with err.
func (q Queue) Finish(c Claimed, err error) error {
	dir := "done"
	if err != nil {
		dir, c.Item.Error = "failed", err.Error()
	}
	if werr := q.write(dir, c.key, c.Item); werr != nil {
		return werr
	}
	return os.Remove(q.path(c.key + ".working"))
}

// Pending returns the items still queued or being processed.
func (q Queue) Pending() ([]Item, error) {
	var out []Item
	for _, pat := range []string{"*.json", "*.working"} {
		names, err := filepath.Glob(q.path(pat))
		if err != nil {
			return nil, err
		}
		for _, n := range names {
			var it Item
			if data, err := os.ReadFile(n); err == nil && json.Unmarshal(data, &it) == nil {
				out = append(out, it)
			}
		}
	}
	return out, nil
}

// HasQueued reports whether an item waits to be claimed.
func (q Queue) HasQueued() bool {
	names, _ := filepath.Glob(q.path("*.json"))
	return len(names) > 0
}

// Failed returns the items that failed, with their errors.
func (q Queue) Failed() ([]Item, error) {
	names, err := filepath.Glob(q.path("failed", "*.json"))
	if err != nil {
		return nil, err
	}
	var out []Item
	for _, n := range names {
		var it Item
		if data, err := os.ReadFile(n); err == nil && json.Unmarshal(data, &it) == nil {
			out = append(out, it)
		}
	}
	return out, nil
}

func (q Queue) requeueStale(now time.Time) {
	names, _ := filepath.Glob(q.path("*.working"))
	for _, n := range names {
		if fi, err := os.Stat(n); err == nil && now.Sub(fi.ModTime()) > StaleClaim {
			_ = os.Rename(n, strings.TrimSuffix(n, ".working")+".json")
		}
	}
}

// write stores it as <Dir>/<sub>/<key>.json atomically.
func (q Queue) write(sub, key string, it Item) error {
	dir := q.path(sub)
	if err := os.MkdirAll(dir, 0o755); err != nil {
		return err
	}
	data, err := json.MarshalIndent(it, "", "  ")
	if err != nil {
		return err
	}
	tmp := filepath.Join(dir, ".tmp-"+key)
	if err := os.WriteFile(tmp, append(data, '\n'), 0o644); err != nil {
		return err
	}
	return os.Rename(tmp, filepath.Join(dir, key+".json"))
}

func (q Queue) path(elem ...string) string {
	return filepath.Join(append([]string{q.Dir}, elem...)...)
}
