//go:build !unix

package seed

// lockSeed is a no-op where advisory file locks are not available: changes
// are still atomic, but concurrent writers may lose an update.
func lockSeed(string) (func(), error) { return func() {}, nil }
