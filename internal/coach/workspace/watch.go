package workspace

import (
	"errors"
	"io/fs"
	"log/slog"
	"os"
	"path/filepath"
	"runtime/debug"
	"sync"
	"time"

	"github.com/fsnotify/fsnotify"
)

// DefaultDebounce is how long the watcher gathers events before emitting
// one coalesced batch.
const DefaultDebounce = 100 * time.Millisecond

// syncEntries is how many entries (files and directories) [Workspace.Watch]
// walks before it returns; the rest of a larger project is walked in the
// background, so a 100,000-file project does not delay the server's start
// (issue 15). Projects of up to syncEntries entries are watched whole on
// return.
const syncEntries = 500

// WatchOptions configures [Workspace.Watch]. A nil *WatchOptions means defaults.
type WatchOptions struct {
	// Debounce is the coalescing window. If zero, DefaultDebounce.
	Debounce time.Duration
	// Logger receives watcher errors. If nil, discarded.
	Logger *slog.Logger
}

// Watcher watches the project recursively (scenarios 3.7, 3.8; FR-035..037):
// directories created later are watched too, excluded directories are
// ignored, and events are coalesced per path within a debounce window
// (a file created and deleted within one window produces nothing; created
// then written is one add). Batches arrive on Events in first-seen order.
// When the kernel drops events (its queue overflowed) the watcher watches
// every directory again and reports one [OpRescan] event.
//
// Watch returns once the project's first entries are walked (all of them
// in a project of up to 2,000 files and directories); the walk of a larger tree
// continues in the watcher's goroutine, and Ready is closed when every
// directory is watched. Until then, a change in a directory not yet
// reached is not reported (as a change before the start is not).
//
// Close stops watching, discards pending events (EC-16), waits for the
// goroutine to exit and closes Events. It is idempotent and safe to call
// concurrently.
type Watcher struct {
	ws       *Workspace
	fw       *fsnotify.Watcher
	log      *slog.Logger
	debounce time.Duration
	events   chan []FileEvent
	done     chan struct{}
	exited   chan struct{}
	ready    chan struct{} // closed when the initial walk is done
	once     sync.Once
	closeErr error

	known *knownSet // path → is a directory; owned by the loop goroutine
}

// Watch starts watching the project directory.
func (w *Workspace) Watch(opts *WatchOptions) (*Watcher, error) {
	var o WatchOptions
	if opts != nil {
		o = *opts
	}
	if o.Debounce <= 0 {
		o.Debounce = DefaultDebounce
	}
	if o.Logger == nil {
		o.Logger = slog.New(slog.DiscardHandler)
	}
	fw, err := fsnotify.NewWatcher()
	if err != nil {
		return nil, err
	}
	wt := &Watcher{ws: w, fw: fw, log: o.Logger, debounce: o.Debounce, events: make(chan []FileEvent, 16),
		done: make(chan struct{}), exited: make(chan struct{}), ready: make(chan struct{}),
		known: newKnownSet()}
	started := make(chan error, 1)
	go wt.loop(started)
	if err := <-started; err != nil {
		<-wt.exited
		fw.Close()
		return nil, err
	}
	return wt, nil
}

// Events returns the channel of coalesced batches; it is closed by Close.
func (wt *Watcher) Events() <-chan []FileEvent { return wt.events }

// Ready returns a channel closed once every directory of the project
// present at the start is watched (or the watcher is closed first).
func (wt *Watcher) Ready() <-chan struct{} { return wt.ready }

// walkHook, when set by a test, runs in the watcher's goroutine after
// Watch has returned and before the rest of the initial walk.
var walkHook func()

// initialWalk watches the project tree. It sends on started the error of
// watching the root, or nil once syncEntries entries are walked or the
// walk is done, whichever comes first; it returns false if the walk
// failed at the root (Watch then fails) or the watcher was closed.
func (wt *Watcher) initialWalk(started chan<- error) bool {
	defer close(wt.ready)
	entries, signalled := 0, false
	signal := func(err error) {
		if !signalled {
			signalled = true
			started <- err
			if walkHook != nil && err == nil {
				walkHook()
			}
		}
	}
	errStop := errors.New("watcher closed")
	err := wt.walk(wt.ws.guard.root, nil, func() error {
		if entries++; entries == syncEntries {
			signal(nil)
		}
		select {
		case <-wt.done:
			return errStop
		default:
			return nil
		}
	})
	if err != nil && !errors.Is(err, errStop) {
		signal(err)
		return false
	}
	signal(nil)
	if err == nil {
		wt.known.compact()
	}
	if err == nil && entries > syncEntries {
		// A large walk grew the heap (the known set, the listings,
		// fsnotify's tables) past what stays live; at the server's GOGC the
		// difference would stay resident: return it once, now that the
		// walk is over.
		debug.FreeOSMemory()
	}
	return err == nil
}

// Close stops the watcher; see [Watcher].
func (wt *Watcher) Close() error {
	wt.once.Do(func() {
		close(wt.done)
		wt.closeErr = wt.fw.Close()
		<-wt.exited
	})
	return wt.closeErr
}

// addTree watches dir and every non-excluded directory below it, recording
// what it finds. When emit is not nil every entry found below dir is
// reported as added (a directory created after start may already hold
// files by the time its watch is in place).
func (wt *Watcher) addTree(dir string, emit func(FileEvent)) error {
	return wt.walk(dir, emit, nil)
}

// walk is addTree calling after (when not nil) after each entry, once a
// directory is watched; an error from after stops the walk and is returned.
// An error at dir itself (gone, unreadable, not watchable) is returned; a
// subdirectory that cannot be read or watched is skipped with what could
// be read of it.
func (wt *Watcher) walk(dir string, emit func(FileEvent), after func() error) error {
	root := wt.ws.guard.root
	return filepath.WalkDir(dir, func(path string, d fs.DirEntry, err error) error {
		if err != nil {
			if path == dir {
				return err
			}
			return nil // vanished or unreadable: what was read of it
		}
		rel, ok := within(root, path)
		if !ok {
			return filepath.SkipDir
		}
		if !d.IsDir() && isTempName(d.Name()) {
			wt.removeLeftover(rel, d)
			return nil
		}
		if d.IsDir() {
			if path != root && Excluded(d.Name()) {
				return filepath.SkipDir
			}
			if err := wt.fw.Add(path); err != nil {
				if path == dir {
					return err
				}
				// Typically the inotify watch limit: keep going, say so.
				wt.log.Warn("cannot watch directory", "path", rel, "err", err)
			}
		}
		if after != nil {
			if err := after(); err != nil {
				return err
			}
		}
		if rel == "." {
			return nil
		}
		wt.known.set(rel, d.IsDir())
		if emit != nil && path != dir {
			op := OpAdd
			if d.IsDir() {
				op = OpAddDir
			}
			emit(FileEvent{Action: op, Path: rel})
		}
		return nil
	})
}

// loop runs the initial walk (see [Watcher.initialWalk]), then turns
// fsnotify events into coalesced batches until Close.
func (wt *Watcher) loop(started chan<- error) {
	defer close(wt.exited)
	defer close(wt.events)
	if !wt.initialWalk(started) {
		return
	}
	var (
		win   pending
		timer *time.Timer
		fire  <-chan time.Time
	)
	for {
		select {
		case <-wt.done:
			return
		case ev, ok := <-wt.fw.Events:
			if !ok {
				return
			}
			wt.translate(ev, win.add)
			if !win.empty() && fire == nil {
				timer = time.NewTimer(wt.debounce)
				fire = timer.C
			}
		case err, ok := <-wt.fw.Errors:
			if !ok {
				return
			}
			wt.log.Warn("file watcher error", "err", err)
			if errors.Is(err, fsnotify.ErrEventOverflow) {
				wt.rescan(win.add)
				if fire == nil {
					timer = time.NewTimer(wt.debounce)
					fire = timer.C
				}
			}
		case <-fire:
			fire = nil
			if batch := win.take(); len(batch) > 0 {
				select {
				case wt.events <- batch:
				case <-wt.done:
					return
				}
			}
		}
	}
}

// rescan recovers from lost events: it watches every directory again
// (new ones may have no watch yet) and reports [OpRescan].
func (wt *Watcher) rescan(emit func(FileEvent)) {
	if err := wt.addTree(wt.ws.guard.root, nil); err != nil {
		wt.log.Warn("rescan project", "err", err)
	}
	emit(FileEvent{Action: OpRescan, Path: "."})
}

// translate turns one fsnotify event into workspace events.
func (wt *Watcher) translate(ev fsnotify.Event, emit func(FileEvent)) {
	rel, ok := within(wt.ws.guard.root, filepath.Clean(ev.Name))
	if !ok || rel == "." || excludedPath(rel) || isTempName(filepath.Base(rel)) {
		return
	}
	switch {
	case ev.Has(fsnotify.Create):
		info, err := os.Lstat(ev.Name)
		if err != nil {
			return // already gone
		}
		if info.IsDir() {
			wt.known.set(rel, true)
			emit(FileEvent{Action: OpAddDir, Path: rel})
			if err := wt.addTree(ev.Name, emit); err != nil && !errors.Is(err, fs.ErrNotExist) {
				wt.log.Warn("watch new directory", "path", rel, "err", err)
			}
			return
		}
		op := OpAdd
		if _, seen := wt.known.get(rel); seen {
			op = OpChange
		}
		wt.known.set(rel, false)
		emit(FileEvent{Action: op, Path: rel})
	case ev.Has(fsnotify.Write):
		op := OpChange
		if _, seen := wt.known.get(rel); !seen {
			op = OpAdd
		}
		wt.known.set(rel, false)
		emit(FileEvent{Action: op, Path: rel})
	case ev.Has(fsnotify.Remove), ev.Has(fsnotify.Rename):
		isDir, seen := wt.known.get(rel)
		wt.forget(rel)
		if isDir {
			emit(FileEvent{Action: OpUnlinkDir, Path: rel})
			return
		}
		if seen {
			emit(FileEvent{Action: OpUnlink, Path: rel})
		}
	}
}

// forget drops rel and, for a directory, everything known below it,
// removing the watches of the directory and its subdirectories: a renamed
// directory would otherwise keep reporting events under its old name.
func (wt *Watcher) forget(rel string) {
	if isDir, _ := wt.known.get(rel); isDir {
		wt.known.removeBelow(rel, func(p string) {
			_ = wt.fw.Remove(filepath.Join(wt.ws.guard.root, filepath.FromSlash(p)))
		})
		_ = wt.fw.Remove(filepath.Join(wt.ws.guard.root, filepath.FromSlash(rel)))
	}
	wt.known.remove(rel)
}
