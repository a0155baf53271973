package knowledge

import (
	"bufio"
	"encoding/json"
	"errors"
	"fmt"
	"os"
	"path/filepath"
	"strconv"
)

// Processed records one extracted transcript. Key identifies the file's
// state (absolute path, size and modification time): a transcript that
// grew since is extracted again, and duplicates are filtered then.
type Processed struct {
	Key         string `json:"key"`
	Path        string `json:"path"`
	Size        int64  `json:"size"`
	ModTime     string `json:"modTime"`
	ExtractedAt string `json:"extractedAt"`
	Entries     int    `json:"entries"`
}

// TranscriptKey returns the [Processed] key of the file at path.
func TranscriptKey(path string) (key string, fi os.FileInfo, err error) {
	abs, err := filepath.Abs(path)
	if err != nil {
		return "", nil, err
	}
	fi, err = os.Stat(abs)
	if err != nil {
		return "", nil, err
	}
	return abs + "\x00" + strconv.FormatInt(fi.Size(), 10) + "\x00" + strconv.FormatInt(fi.ModTime().UnixNano(), 10), fi, nil
}

// IsProcessed reports whether a transcript with key was extracted before.
func (s *Store) IsProcessed(key string) (bool, error) {
	f, err := os.Open(filepath.Join(s.dir, ProcessedFile))
	if errors.Is(err, os.ErrNotExist) {
		return false, nil
	}
	if err != nil {
		return false, fmt.Errorf("open processed list: %w", err)
	}
	defer f.Close()
	sc := bufio.NewScanner(f)
	sc.Buffer(nil, 1<<20)
	for sc.Scan() {
		var p Processed
		if json.Unmarshal(sc.Bytes(), &p) == nil && p.Key == key {
			return true, nil
		}
	}
	return false, sc.Err()
}

// MarkProcessed appends p to the processed list.
func (s *Store) MarkProcessed(p Processed) error {
	return s.Batch(func(b *Batch) error {
		b.MarkProcessed(p)
		return nil
	})
}
