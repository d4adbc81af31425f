package proc

import "testing"

func TestServerBinary(t *testing.T) {
	tests := []struct {
		argv []string
		want string
	}{
		{[]string{"./srv", "--port", "1"}, "./srv"},
		{[]string{"taskset", "-c", "1", "/bin/sh", "-c", "x"}, "/bin/sh"},
		{[]string{"nice", "-n", "5", "env", "A=1", "/bin/sh"}, "/bin/sh"},
		{[]string{"taskset", "-c", "1"}, "taskset"},
	}
	for _, tt := range tests {
		if got := ServerBinary(tt.argv); got != tt.want {
			t.Errorf("ServerBinary(%q) = %q, want %q", tt.argv, got, tt.want)
		}
	}
}
