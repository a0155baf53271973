package transcript

// sigSet is the set of block signatures of an open assistant turn (see
// [scanner.fresh]). A turn has a few blocks: they are compared one by one,
// which costs less than hashing each block's whole text; past
// manySigs a map keeps a turn of thousands of blocks linear.
type sigSet struct {
	few  []string
	many map[string]struct{}
}

const manySigs = 8

// has reports whether sig is in the set.
func (s *sigSet) has(sig []byte) bool {
	if s.many != nil {
		_, ok := s.many[string(sig)]
		return ok
	}
	for _, f := range s.few {
		if f == string(sig) {
			return true
		}
	}
	return false
}

// add puts sig, not in the set yet, in it.
func (s *sigSet) add(sig string) {
	switch {
	case s.many != nil:
		s.many[sig] = struct{}{}
	case len(s.few) < manySigs:
		s.few = append(s.few, sig)
	default:
		s.many = make(map[string]struct{}, 2*manySigs)
		for _, f := range s.few {
			s.many[f] = struct{}{}
		}
		s.many[sig] = struct{}{}
	}
}

// reset empties the set, keeping the room of its list.
func (s *sigSet) reset() {
	clear(s.few)
	s.few, s.many = s.few[:0], nil
}
