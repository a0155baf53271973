//go:build !unix

package knowledge

// lockDir is a no-op where flock is unavailable: appends from one process
// are still serialised by the Store's mutex.
func lockDir(string) (func(), error) { return func() {}, nil }
