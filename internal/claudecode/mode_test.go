package claudecode

import "testing"

func TestParseMode(t *testing.T) {
	tests := []struct {
		in, want string
		err      bool
	}{
		{"", ModeAuto, false}, {"auto", ModeAuto, false}, {"Coach", ModeCoach, false},
		{"on", ModeCoach, false}, {"off", ModeOff, false}, {"bogus", ModeAuto, true},
	}
	for _, tt := range tests {
		got, err := ParseMode(tt.in)
		if got != tt.want || (err != nil) != tt.err {
			t.Errorf("ParseMode(%q) = %q, %v; want %q, err %v", tt.in, got, err, tt.want, tt.err)
		}
	}
}
