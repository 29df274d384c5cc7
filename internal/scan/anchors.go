package scan

import (
	"sort"
	"sync"

	"github.com/airlock-dev/airlock/internal/classify"
)

// Family is one classifier spec whose examples include a held action: the
// programs it rates, named by the first. The plain-text scanner has one
// anchor per program of every family, so a program the classifier learns
// to hold is scanned for without a change here.
type Family struct {
	// Name is the spec's first program, e.g. "git", "curl", "railway".
	Name string
	// Programs are every program the spec rates.
	Programs []string
	// External reports whether the spec has an example that reaches
	// outside the machine; Destructive, one that destroys data.
	External, Destructive bool
}

// Families lists the classifier's families that plain text is scanned
// for: every spec with an external or destructive example.
func Families() []Family {
	var out []Family
	for _, s := range classify.Specs() {
		f := Family{Name: s.Programs[0], Programs: s.Programs}
		for _, ex := range s.Examples {
			e, err := classify.ParseLabel(ex.Label)
			if err != nil {
				continue // the classify tests reject bad labels
			}
			f.External = f.External || e.Tier == classify.External
			f.Destructive = f.Destructive || e.Destructive
		}
		if f.External || f.Destructive {
			out = append(out, f)
		}
	}
	return out
}

// proseWords are program names that are also everyday words, too short to
// mean anything alone ("mail the report", "find the bug", "r"), or mostly
// used as nouns in prose ("the ssh agent", "python tests pass"). They
// count as anchors only where a command starts (see commandPosition);
// every other program name counts anywhere. All are matched in lower
// case only, as commands are typed. This is a heuristic against flooding
// a reviewer with prose, not a judgement of the programs: a line or a
// code span starting with one of these words is still classified.
func proseWords(name string) bool {
	switch name {
	case "mail", "host", "find", "fly", "http", "https", "node", "service", "init", "kill", "defaults",
		"security", "mount", "umount", "bundle", "port", "snap", "dig", "ping", "halt", "reboot", "shutdown",
		"passwd", "hatch", "flit", "poetry", "tofu", "helm", "nail", "sam", "r", "py", "go", "eb", "oc", "nc",
		"mv", "rm", "dd", "tar", "gem", "bun", "lua", "ruby", "perl", "shred", "truncate", "deno", "yarn",
		"mosh", "host6", "drill", "delv", "whois", "ftp", "telnet", "mongo", "swapon", "swapoff", "parted",
		"crontab", "zfs", "btrfs", "cdk", "sls", "uv", "php", "sshfs", "ssh", "python", "python3", "docker",
		"launchctl", "diskutil", "visudo", "sysctl", "mutt", "exim":
		return true
	}
	return false
}

// outputMarkers are lines a program prints when it has published
// something, strong enough to report on their own even when the command
// that printed them is not in the text (a release script's log). The
// command is what the marker implies ran.
var outputMarkers = []struct {
	text    string // lower case, as the matcher folds case
	command string
}{
	{"npm notice publishing to", "npm publish"},
	{"the push refers to repository", "docker push"},
	{"uploading distributions to", "twine upload"},
	{"pushing gem to", "gem push"},
	{"successfully registered gem", "gem push"},
	{"apply complete! resources:", "terraform apply"},
	{"destroy complete! resources:", "terraform destroy"},
	{"your package was pushed", "dotnet nuget push"},
	{"visit your newly deployed app", "fly deploy"},
	{" * [new branch] ", "git push"},
	{" * [new tag] ", "git push"},
	{"remote: create a pull request for", "git push"},
	{"remote: to create a merge request for", "git push"},
	{"(forced update)", "git push --force"},
}

// anchors is the compiled word set: program names first, then output
// markers, then the markdown fences, which change how the lines after
// them are read.
type anchors struct {
	m        *matcher
	programs int               // words [0, programs) are program names
	markers  int               // words [programs, markers) are output markers
	family   map[string]string // program → family name
	quick    *quick
}

var (
	anchorsOnce sync.Once
	theAnchors  *anchors
)

// getAnchors compiles the anchors once per process: the specs do not
// change at run time.
func getAnchors() *anchors {
	anchorsOnce.Do(func() {
		a := &anchors{family: map[string]string{}}
		var words []string
		for _, f := range Families() {
			for _, p := range f.Programs {
				if _, dup := a.family[p]; dup {
					continue
				}
				a.family[p] = f.Name
				words = append(words, p)
			}
		}
		sort.Strings(words)
		a.programs = len(words)
		for _, o := range outputMarkers {
			words = append(words, o.text)
		}
		a.markers = len(words)
		words = append(words, "```", "~~~")
		bounded := make([]bool, len(words))
		for i := 0; i < a.programs; i++ {
			bounded[i] = true
		}
		a.m = newMatcher(words, bounded)
		a.quick = newQuick()
		theAnchors = a
	})
	return theAnchors
}
