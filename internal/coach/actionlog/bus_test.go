package actionlog

import (
	"sync"
	"testing"
)

func TestBusDelivers(t *testing.T) {
	var b Bus
	s1, s2 := b.Subscribe(4), b.Subscribe(4)
	b.Publish(Event{Type: "file_open", SessionID: "s"})
	for i, s := range []*Subscription{s1, s2} {
		e := <-s.C()
		if e.Type != "file_open" || e.SessionID != "s" {
			t.Errorf("subscriber %d got %+v", i, e)
		}
	}
	s1.Unsubscribe()
	s1.Unsubscribe() // idempotent
	if _, ok := <-s1.C(); ok {
		t.Error("unsubscribed channel still open")
	}
	b.Publish(Event{Type: "file_save"})
	if e := <-s2.C(); e.Type != "file_save" {
		t.Errorf("remaining subscriber got %+v", e)
	}
}

// A slow subscriber never blocks Publish; its overflow is counted.
func TestBusNonBlocking(t *testing.T) {
	var b Bus
	slow := b.Subscribe(2)
	fast := b.Subscribe(100)
	for range 10 {
		b.Publish(Event{Type: "selection"})
	}
	if got := slow.Dropped(); got != 8 {
		t.Errorf("slow dropped %d, want 8", got)
	}
	if got := fast.Dropped(); got != 0 || len(fast.C()) != 10 {
		t.Errorf("fast dropped %d, holds %d; want 0 and 10", got, len(fast.C()))
	}
	if s := b.Subscribe(0); cap(s.c) != DefaultSubscriberBuffer {
		t.Errorf("default buffer = %d, want %d", cap(s.c), DefaultSubscriberBuffer)
	}
}

func TestBusClose(t *testing.T) {
	var b Bus
	s := b.Subscribe(1)
	b.Close()
	b.Close()
	if _, ok := <-s.C(); ok {
		t.Error("channel open after Close")
	}
	b.Publish(Event{Type: "x"}) // no panic, no effect
	late := b.Subscribe(1)
	if _, ok := <-late.C(); ok {
		t.Error("subscription to a closed bus is open")
	}
	s.Unsubscribe() // after Close: still fine
}

// Concurrent publish, subscribe and unsubscribe under -race.
func TestBusConcurrent(t *testing.T) {
	var b Bus
	var wg sync.WaitGroup
	for range 4 {
		wg.Add(2)
		go func() {
			defer wg.Done()
			for range 500 {
				b.Publish(Event{Type: "tab_switch"})
			}
		}()
		go func() {
			defer wg.Done()
			for range 50 {
				s := b.Subscribe(8)
				select {
				case <-s.C():
				default:
				}
				s.Unsubscribe()
			}
		}()
	}
	wg.Wait()
	b.Close()
}
