package clierror

import (
	"bytes"
	"errors"
	"fmt"
	"testing"
)

func TestPrint(t *testing.T) {
	cases := []struct {
		err  error
		want string
	}{
		{errors.New("disk full"), "airlock: error: disk full\n"},
		{&Usage{Msg: "no input", Hints: []string{"airlock scan FILE", "cmd | airlock scan -"}},
			"airlock: error: no input\nairlock: hint: airlock scan FILE\nairlock: hint: cmd | airlock scan -\n"},
		{fmt.Errorf("loading: %w", &Usage{Msg: "bad key", Hints: []string{"fix it"}}),
			"airlock: error: loading: bad key\nairlock: hint: fix it\n"},
	}
	for _, c := range cases {
		var b bytes.Buffer
		if st := Print(&b, c.err); st != ExitUsage || b.String() != c.want {
			t.Errorf("Print(%v) = %d %q, want %d %q", c.err, st, b.String(), ExitUsage, c.want)
		}
	}
}
