package workspace

// Op is the action of a file-system event, named as chokidar names them
// (the spec's watcher): the `action` of fs:tree_update.
type Op string

// File-system event actions.
const (
	OpAdd       Op = "add"
	OpAddDir    Op = "addDir"
	OpChange    Op = "change"
	OpUnlink    Op = "unlink"
	OpUnlinkDir Op = "unlinkDir"
	// OpRescan means events were lost (the kernel's event queue
	// overflowed): the tree must be scanned again. Its path is ".".
	OpRescan Op = "rescan"
)

// FileEvent is one coalesced file-system change; the JSON form is the
// payload of fs:tree_update `{action, path}`. Path is normalised and
// project-relative.
type FileEvent struct {
	Action Op     `json:"action"`
	Path   string `json:"path"`
}

// coalesce merges the pending action of a path with a newer one. keep is
// false when the two cancel out (created then deleted within one window).
func coalesce(prev, next Op) (op Op, keep bool) {
	switch {
	case prev == OpAdd && next == OpChange:
		return OpAdd, true
	case prev == OpAdd && next == OpUnlink, prev == OpAddDir && next == OpUnlinkDir:
		return "", false
	case prev == OpUnlink && next == OpAdd:
		return OpChange, true
	}
	return next, true
}

// pending accumulates events of one debounce window in first-seen order.
type pending struct {
	order []string
	ops   map[string]Op
}

func (p *pending) add(ev FileEvent) {
	if p.ops == nil {
		p.ops = make(map[string]Op)
	}
	prev, seen := p.ops[ev.Path]
	if !seen {
		p.ops[ev.Path] = ev.Action
		p.order = append(p.order, ev.Path)
		return
	}
	op, keep := coalesce(prev, ev.Action)
	if !keep {
		delete(p.ops, ev.Path) // its slot in order is skipped by take
		return
	}
	p.ops[ev.Path] = op
}

func (p *pending) empty() bool { return len(p.ops) == 0 }

// take returns the window's events and resets it.
func (p *pending) take() []FileEvent {
	out := make([]FileEvent, 0, len(p.ops))
	for _, path := range p.order {
		if op, ok := p.ops[path]; ok {
			out = append(out, FileEvent{Action: op, Path: path})
			delete(p.ops, path) // a path re-added after cancelling appears once
		}
	}
	p.order, p.ops = p.order[:0], nil
	return out
}
