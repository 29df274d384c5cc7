package policy

import (
	"strings"
	"testing"
)

// Install then uninstall gives back the file as it was, byte for byte,
// when install appended the section; a human's own gate setting is left.
func TestDisableGateUndoesEnableGate(t *testing.T) {
	for _, tc := range []struct {
		name, in string
		// want is the file after enable+disable; "" means the input.
		want string
	}{
		{name: "empty", in: ""},
		{name: "rules", in: "version: 1\nrules:\n  - id: x\n    match: {command: [\"git push personal\"]}\n    decision: allow\n"},
		{name: "no final newline", in: "version: 1", want: "version: 1\n"},
		{name: "section without enabled", in: "version: 1\ngate:\n  routine_bash: false\n"},
		{name: "section with enabled false", in: "version: 1\ngate:\n  enabled: false\n  routine_bash: false\n",
			// the key install set is taken out; the gate is off by default
			want: "version: 1\ngate:\n  routine_bash: false\n"},
	} {
		t.Run(tc.name, func(t *testing.T) {
			on, changed, err := EnableGate("p.yaml", []byte(tc.in))
			if err != nil || !changed {
				t.Fatalf("EnableGate: changed=%v err=%v", changed, err)
			}
			off, changed, how, err := DisableGate("p.yaml", on)
			if err != nil || !changed || how != GateByInstall {
				t.Fatalf("DisableGate(%q): changed=%v how=%v err=%v", on, changed, how, err)
			}
			want := tc.want
			if want == "" {
				want = tc.in
			}
			if string(off) != want {
				t.Errorf("after enable and disable:\n%q\nwant\n%q", off, want)
			}
			again, changed, how, err := DisableGate("p.yaml", off)
			if err != nil || changed || how != GateNotSet || string(again) != string(off) {
				t.Errorf("second DisableGate changed=%v how=%v err=%v", changed, how, err)
			}
		})
	}
}

func TestDisableGateLeavesAHumansGate(t *testing.T) {
	for _, in := range []string{
		"version: 1\ngate:\n  enabled: true\n",
		"version: 1\ngate: {enabled: true}\n",
		// the comment alone, not on the key, is not install's mark
		"version: 1\n# turned on by airlock install --gate\ngate:\n  enabled: true\n",
	} {
		out, changed, how, err := DisableGate("p.yaml", []byte(in))
		if err != nil || changed || how != GateByHand || string(out) != in {
			t.Errorf("DisableGate(%q) = %q, changed=%v how=%v err=%v; want it left as a human wrote it", in, out, changed, how, err)
		}
	}
	if _, _, _, err := DisableGate("p.yaml", []byte("gate: [\n")); err == nil || !strings.Contains(err.Error(), "p.yaml") {
		t.Errorf("a broken file: err %v, want a FileError naming it", err)
	}
}
