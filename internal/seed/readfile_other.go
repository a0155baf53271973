//go:build !unix

package seed

import "os"

// readFile is os.ReadFile.
func readFile(path string) ([]byte, error) { return os.ReadFile(path) }
