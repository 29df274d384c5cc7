//go:build linux

package runfirst

import (
	"slices"
	"testing"
)

func TestRunArgs(t *testing.T) {
	for _, c := range []struct {
		argv []string
		want []string
		ok   bool
	}{
		{[]string{"airlock", "run", "--", "true"}, []string{"--", "true"}, true},
		{[]string{"airlock", "run", "go", "test", "./..."}, []string{"go", "test", "./..."}, true},
		{[]string{"airlock", "run", "--writable", "d", "--", "x"}, []string{"--writable", "d", "--", "x"}, true},
		// The command line's: help, the usage error, other commands.
		{[]string{"airlock", "run"}, nil, false},
		{[]string{"airlock", "run", "--help"}, nil, false},
		{[]string{"airlock", "run", "-h"}, nil, false},
		{[]string{"airlock", "hook", "run"}, nil, false},
		{[]string{"airlock", "queue", "run", "abcd"}, nil, false},
		{[]string{"airlock"}, nil, false},
	} {
		got, ok := runArgs(c.argv)
		if ok != c.ok || !slices.Equal(got, c.want) {
			t.Errorf("runArgs(%q) = %q, %v; want %q, %v", c.argv, got, ok, c.want, c.ok)
		}
	}
}
