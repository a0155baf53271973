package pipeline

import (
	"time"

	"github.com/paige-dev/paige/internal/learn"
	"github.com/paige-dev/paige/internal/learn/knowledge"
)

// storePart does what Run does with the store for a transcript at path
// whose sentences yield fresh (BenchmarkStore3MB).
func storePart(s *knowledge.Store, path string, fresh []learn.Entry) error {
	key, fi, err := knowledge.TranscriptKey(path)
	if err != nil {
		return err
	}
	if _, err := s.IsProcessed(key); err != nil {
		return err
	}
	var res Result
	return s.Batch(func(b *knowledge.Batch) error {
		if err := storeTrail(b, &res, func([]learn.Entry) []learn.Entry { return nil }); err != nil {
			return err
		}
		if err := store(b, &res, func([]learn.Entry) []learn.Entry { return fresh }, nil); err != nil {
			return err
		}
		b.MarkProcessed(knowledge.Processed{Key: key, Path: path, Size: fi.Size(), ModTime: fi.ModTime().UTC().Format(time.RFC3339Nano),
			ExtractedAt: fixedNow().Format(time.RFC3339), Entries: len(res.Entries)})
		return nil
	})
}
