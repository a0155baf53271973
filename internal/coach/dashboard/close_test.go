package dashboard

import (
	"runtime"
	"sync"
	"testing"
)

// discard is a Sink that drops everything.
type discard struct{}

func (discard) State(DashboardState)         {}
func (discard) Issues(DashboardIssues)       {}
func (discard) IssuesError(string)           {}
func (discard) Materials(DashboardMaterials) {}
func (discard) MaterialsError(string)        {}

// Close while requests keep arriving: each flow either runs before Close
// returns or is answered at once with the cancelled context; a flow is never
// started behind Close's back (-race reports a WaitGroup Add racing Wait).
func TestCloseRacesRequests(t *testing.T) {
	t.Parallel()
	s := newServer(t, serverOpts{})
	var wg sync.WaitGroup
	started := make(chan struct{})
	wg.Add(1)
	go func() { // an editor's connection, which nothing orders with the shutdown
		defer wg.Done()
		for i := range 3000 {
			if i == 5 {
				close(started)
			}
			s.svc.RefreshIssues(discard{})
			runtime.Gosched()
		}
	}()
	<-started
	s.svc.Close() // while the requests go on
	wg.Wait()
}
