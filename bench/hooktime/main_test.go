//go:build linux

package main

import (
	"os"
	"os/exec"
	"testing"
	"time"
)

// TestCheckRejectsWrongReplies: a binary that does not answer as airlock
// would must be reported, not timed. echo prints its arguments, which is
// neither an empty reply nor a decision.
func TestCheckRejectsWrongReplies(t *testing.T) {
	echo, err := exec.LookPath("echo")
	if err != nil {
		t.Skip("no echo")
	}
	in, err := os.Open(os.DevNull)
	if err != nil {
		t.Fatal(err)
	}
	defer in.Close()
	b := binary{label: "echo", path: echo, env: os.Environ(), checked: true}
	for _, c := range cases {
		if err := check(b, c, in); err == nil {
			t.Errorf("%s: echo's reply was accepted", c.name)
		}
	}
	// A reply that holds what the case wants passes.
	ok := testCase{name: "echo", args: []string{"airlock"}, want: "airlock"}
	if err := check(b, ok, in); err != nil {
		t.Errorf("a right reply was rejected: %v", err)
	}
}

func TestQuantile(t *testing.T) {
	d := []time.Duration{5, 1, 4, 2, 3}
	if got := quantile(d, 0.5); got != 3 {
		t.Errorf("median = %v, want 3", got)
	}
	if got := quantile(d, 0.9); got != 5 {
		t.Errorf("p90 = %v, want 5", got)
	}
	if d[0] != 5 {
		t.Error("quantile sorted its input in place")
	}
}
