package wsapi

import "testing"

func TestAllowedOrigin(t *testing.T) {
	tests := []struct {
		origin, host string
		want         bool
	}{
		{"", "127.0.0.1:3000", true},
		{"null", "127.0.0.1:3000", true},
		{"file://", "127.0.0.1:3000", true},
		{"file:///Applications/Paige.app", "127.0.0.1:3000", true},
		{"app://paige", "127.0.0.1:3000", true},
		{"http://localhost:5173", "127.0.0.1:3000", true},
		{"https://LOCALHOST", "127.0.0.1:3000", true},
		{"http://127.0.0.1:9999", "127.0.0.1:3000", true},
		{"http://[::1]:8080", "127.0.0.1:3000", true},
		{"http://192.168.1.5:3000", "192.168.1.5:3000", true}, // same origin
		{"https://evil.example", "127.0.0.1:3000", false},
		{"http://localhost.evil.example", "127.0.0.1:3000", false},
		{"http://127.0.0.1.evil.example", "127.0.0.1:3000", false},
		{"chrome-extension://abc", "127.0.0.1:3000", false},
		{"http://", "127.0.0.1:3000", false},
		{"::::", "127.0.0.1:3000", false},
	}
	for _, tt := range tests {
		t.Run(tt.origin, func(t *testing.T) {
			if got := AllowedOrigin(tt.origin, tt.host); got != tt.want {
				t.Errorf("AllowedOrigin(%q, %q) = %v, want %v", tt.origin, tt.host, got, tt.want)
			}
		})
	}
}
