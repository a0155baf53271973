//go:build !linux

package proc

// IsTmpfs reports whether dir is on a tmpfs: never known off Linux.
func IsTmpfs(dir string) bool { return false }
