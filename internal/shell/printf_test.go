package shell

import (
	"os/exec"
	"testing"
)

// TestPrintfMatchesBash runs each format and its arguments through the
// real bash's printf (harmless text only) and checks that printfText's
// value is bash's output, or unknown where the row says the shells differ
// or the spelling is not modelled. A modelled value must also be what dash
// and zsh print, where they are installed: the shell that runs an agent's
// command is not known.
func TestPrintfMatchesBash(t *testing.T) {
	bash, err := exec.LookPath("bash")
	if err != nil {
		t.Fatal("bash is needed to confirm printf's values: ", err)
	}
	others := []string{}
	for _, sh := range []string{"dash", "zsh"} {
		if p, err := exec.LookPath(sh); err == nil {
			others = append(others, p)
		}
	}
	unknown := true
	rows := []struct {
		args    []string
		unknown bool
	}{
		{args: []string{"%s", "airlock"}},
		{args: []string{"airlock"}},
		{args: []string{"%s%s", "air", "lock"}},
		{args: []string{"%s\n", "a", "b", "c"}},
		{args: []string{"%s-%s\n", "a", "b", "c"}},
		{args: []string{"%s/.claude", "/h"}},
		{args: []string{"%b", "airlock"}},
		{args: []string{"%b", `airlock\c garbage`}},
		{args: []string{"%b", `\0141irlock`}},
		{args: []string{"%b", `\01411`}},
		{args: []string{"%b", `\0`}, unknown: unknown}, // a NUL byte
		{args: []string{"%b", `a\0b`}, unknown: unknown},
		{args: []string{"%b", `\0101\0102`}},
		{args: []string{"%b", `\0377`}},
		{args: []string{"%b", `\141irlock`}, unknown: unknown}, // zsh: \141 literally
		{args: []string{"%b", `\x61irlock`}, unknown: unknown}, // dash: \x literally
		{args: []string{"%b", `a\nb\tc\\d`}},
		{args: []string{"%s%b", "air", `lock\c junk`}},
		{args: []string{"air%b", `lock\cjunk`}},
		{args: []string{"%b|%s", `a\cb`, "never"}},
		{args: []string{"%b\n", "one", `two\c`, "three"}},
		{args: []string{"%5.2b|", `xy\cz`}},
		{args: []string{"%-6b|", "ab"}},
		{args: []string{"%.3b|", `ab\ncd`}},
		{args: []string{"%b", `\c`}},
		{args: []string{"x%b", `\c`}},
		{args: []string{"%b", `a\qb`}, unknown: unknown},
		{args: []string{`air\154ock`}},
		{args: []string{`\0141`}},
		{args: []string{`\141\142`}},
		{args: []string{`\1411`}},
		{args: []string{`a\cb`}, unknown: unknown}, // zsh ends at \c
		{args: []string{`\x61`}, unknown: unknown},
		{args: []string{`\"q\"`}, unknown: unknown},
		{args: []string{`\e[0m`}, unknown: unknown},
		{args: []string{`a\n\tb\\`}},
		{args: []string{`100%%`}},
		{args: []string{"%c%c%c%c%c%c%c", "a", "i", "r", "l", "o", "c", "k"}},
		{args: []string{"%c", "airlock"}},
		{args: []string{"%c|", ""}, unknown: unknown}, // a NUL byte
		{args: []string{"%5c|", "x"}},
		{args: []string{"%-3c|", "x"}},
		{args: []string{"%*.*s", "7", "7", "airlockzz"}},
		{args: []string{"%.3s", "airlock"}},
		{args: []string{"%10s|", "air"}},
		{args: []string{"%-10s|", "air"}},
		{args: []string{"%*s|", "-5", "ab"}},
		{args: []string{"%.*s|", "-1", "ab"}},
		{args: []string{"%.s|", "ab"}},
		{args: []string{"%d", "42"}},
		{args: []string{"%d|%d", " 5", "+3"}},
		{args: []string{"%d", "0x1f"}},
		{args: []string{"%d", "010"}, unknown: unknown}, // zsh: decimal
		{args: []string{"%d", "-1"}},
		{args: []string{"%d", "'a"}},
		{args: []string{"%d", `"b`}},
		{args: []string{"%d", "'"}},
		{args: []string{"%d|", ""}},
		{args: []string{"%s|%d|", "x"}},
		{args: []string{"%d", "5 "}, unknown: unknown},
		{args: []string{"%d", "abc"}, unknown: unknown},
		{args: []string{"%d", "99999999999999999999"}, unknown: unknown},
		{args: []string{"%i %u %o %x %X", "9", "9", "9", "255", "255"}},
		{args: []string{"%x|%o|%u", "-1", "-1", "-1"}},
		{args: []string{"%#x|%#o|%#X|%#x|%#o", "31", "8", "31", "0", "0"}},
		{args: []string{"%+d|% d|%+d", "5", "5", "-5"}},
		{args: []string{"%05d|%-5d|%5d|", "42", "42", "-42"}},
		{args: []string{"%05.3d|%.3d|%.0d|%.0d|", "7", "-7", "0", "3"}},
		{args: []string{"%08.3x|%-#8x|", "255", "255"}},
		{args: []string{"%c%s", "a"}},
		{args: []string{"%q", "a b"}, unknown: unknown},
		{args: []string{"%f", "1.5"}, unknown: unknown},
		{args: []string{"%ld", "5"}, unknown: unknown},
		{args: []string{"%", "x"}, unknown: unknown},
		{args: []string{"%z", "x"}, unknown: unknown},
		{args: []string{"%05s", "x"}, unknown: unknown},
		{args: []string{"%.1s", "é"}, unknown: unknown},
		{args: []string{"%s", "é"}},
		{args: []string{"-%s", "x"}, unknown: unknown},
	}
	if len(rows) < 50 {
		t.Fatalf("%d rows, want 50 or more", len(rows))
	}
	run := func(sh string, args []string) string {
		out, err := exec.Command(sh, append([]string{"-c", `printf "$@"`, "_"}, args...)...).Output()
		if err != nil {
			return "ERROR " + err.Error()
		}
		return string(out)
	}
	for _, r := range rows {
		got, ok := printfText(r.args)
		if ok == r.unknown {
			t.Errorf("printf %q: known %v (%q), want known %v (bash prints %q)", r.args, ok, got, !r.unknown, run(bash, r.args))
			continue
		}
		if !ok {
			continue
		}
		if want := run(bash, r.args); got != want {
			t.Errorf("printf %q: airlock's value %q, bash prints %q", r.args, got, want)
		}
		for _, sh := range others {
			if want := run(sh, r.args); got != want {
				t.Errorf("printf %q: airlock's value %q, %s prints %q", r.args, got, sh, want)
			}
		}
	}
}
