package policy

import "testing"

// Where a checkout can be a project below the system's top-level
// directories, and where it cannot (FINDINGS-4 R5).
func TestSystemPlace(t *testing.T) {
	for _, p := range []string{"/etc", "/etc/x", "/usr", "/usr/bin", "/usr/x", "/usr/src", "/usr/local/src", "/var",
		"/var/lib/x", "/var/www", "/home", "/home/dev", "/Users/dev", "/root", "/opt", "/bin", "/proc/1", "/sys/x"} {
		if !systemPlace(p) {
			t.Errorf("%s is not taken for the system's", p)
		}
	}
	for _, p := range []string{"/usr/src/app", "/usr/local/src/app", "/var/www/site", "/home/dev/proj", "/Users/dev/proj",
		"/root/proj", "/opt/app", "/workspace", "/app", "/srv/x", "/data/x"} {
		if systemPlace(p) {
			t.Errorf("%s is taken for the system's", p)
		}
	}
}
