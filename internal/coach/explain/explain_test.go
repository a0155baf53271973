package explain

import "testing"

func TestBinary(t *testing.T) {
	for in, want := range map[string]bool{
		"":                       false,
		"return true;":           false,
		"naïve ✓":                false,
		"\x00\x01":               true,
		"PNG\x89\x50":            true,
		"ok\xff":                 true,
		"line\nline\ttabbed\r\n": false,
	} {
		if got := Binary(in); got != want {
			t.Errorf("Binary(%q) = %v, want %v", in, got, want)
		}
	}
}
