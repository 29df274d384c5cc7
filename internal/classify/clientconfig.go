package classify

import (
	"errors"
	"fmt"
	"io/fs"
	"os"
	"path"
	"strings"

	"github.com/airlock-dev/airlock/internal/shell"
)

// This file reads the configuration files of HTTP clients at decision time
// (FINDINGS-7 G1): curl reads options from $CURL_HOME/.curlrc,
// $XDG_CONFIG_HOME/curlrc and $HOME/.curlrc (unless -q comes first) and
// from every -K/--config file; wget reads $WGETRC or ~/.wgetrc and
// --config. A line there is an option like one on the command line:
// output = "~/.claude/settings.json" writes that file, data = "@.env"
// sends .env, post_file = .env (wget) too. The options found are applied
// as if typed before the command's own: the run is rated again with them,
// and the files they name are its operands, so self-protection sees the
// output. A configuration file written by the same command (other than
// whole, from literal text, before the run), one named at run time, one
// that cannot be read, or one larger than MaxConfigBytes makes the run
// opaque: what it holds is only known when it runs.

// MaxConfigBytes bounds a client configuration file read at decision
// time: a larger one is not read and the run is opaque.
const MaxConfigBytes = 64 << 10

// maxConfigRuns bounds the runs of a command that names a configuration
// file a run reads: past it, the file is opaque for that run.
const maxConfigRuns = 256

// clientConfigFile is one configuration file a run reads.
type clientConfigFile struct {
	name    string // as the run would open it ("~/.curlrc", "/x/.wgetrc")
	dynamic bool   // named at run time
	// explicit: named by the command (-K, --config, WGETRC), so that a
	// file that is not there is the command's failure, not a default.
	explicit bool
}

// clientConfig returns the effect and the operands of the options a run's
// configuration files give it, and false when the run reads none.
func (c *Classifier) clientConfig(inv *shell.Invocation) (Effect, []Operand, bool) {
	if inv.Opaque != "" || len(inv.Args) == 0 || inv.Group {
		return Effect{}, nil, false
	}
	var files []clientConfigFile
	var parse func(string) []string
	name := inv.Name()
	switch name {
	case "curl":
		files, parse = c.curlConfigFiles(inv), curlConfigWords
	case "wget", "wget2":
		files, parse = c.wgetConfigFiles(inv), wgetConfigWords
	default:
		return Effect{}, nil, false
	}
	var words []string
	var e Effect
	for _, f := range files {
		data, failed, ok := c.readConfig(inv, f)
		e.Add(failed)
		if !ok {
			continue
		}
		words = append(words, parse(string(data))...)
	}
	if len(words) == 0 {
		return e, nil, e.Reasons != nil
	}
	// The run as if the options were typed before its own.
	inv2 := *inv
	inv2.Args = append(append([]string{inv.Args[0]}, words...), inv.Args[1:]...)
	if inv.Dynamic != nil {
		inv2.Dynamic = append(append([]bool{inv.IsDynamic(0)}, make([]bool, len(words))...), inv.Dynamic[1:]...)
	}
	inv2.Redirects = nil
	inv2.Env = nil
	s := specFor(name)
	if s == nil {
		return e, nil, e.Reasons != nil
	}
	with := s.Classify(c, &inv2)
	without := s.Classify(c, inv)
	seen := map[Reason]bool{}
	for _, r := range without.Reasons {
		seen[r] = true
	}
	cfg := Effect{Tier: with.Tier, Destructive: with.Destructive, Opaque: with.Opaque, NetworkRead: with.NetworkRead}
	for _, r := range with.Reasons {
		if !seen[r] {
			r.Message += " (an option from " + name + "'s configuration file)"
			cfg.Reasons = append(cfg.Reasons, r)
		}
	}
	e.Add(cfg)
	var ops []Operand
	for _, o := range Operands(&inv2) {
		if o.Arg >= 1 && o.Arg <= len(words) {
			o.Arg = -1 // derived: the word is in a file, not the command
			ops = append(ops, o)
		}
	}
	return e, ops, true
}

// readConfig reads one configuration file: ok with its data, or a failed
// effect saying why what it holds is not known.
func (c *Classifier) readConfig(inv *shell.Invocation, f clientConfigFile) (data []byte, failed Effect, ok bool) {
	who := inv.Name()
	if c.FS == nil {
		return nil, Effect{}, false // nothing is read without a filesystem
	}
	if !f.explicit && strings.HasPrefix(f.name, "~/") {
		if h, ok := c.FS.(interface{ HomeKnown() bool }); ok && !h.HomeKnown() {
			// No home to read the default file in: the decision has no
			// HOME (a scan of a transcript, a client without one).
			return nil, Effect{}, false
		}
	}
	if f.dynamic {
		return nil, opaque("config.dynamic", who+" reads options from a configuration file named at run time ("+clip(f.name)+"), which could name its output or its body"), false
	}
	if !c.cc.mentions(path.Base(f.name)) {
		// No run of the command names it: what is on disk now, read
		// without looking for the command's writes (a command of many
		// runs stays linear).
		return c.readConfigFile(inv, f)
	}
	if len(c.cc.invs) > maxConfigRuns {
		// Which of so many runs writes it is not worked out (each run
		// would look at all the others).
		return nil, opaque("config.written", fmt.Sprintf("%s reads options from %s, which a command of more than %d runs names", who, f.name, maxConfigRuns)), false
	}
	// Another spelling of the file written by the same command ($HOME/.curlrc
	// beside ~/.curlrc, a cp into its directory) is not on disk yet either.
	if c.cc != nil && !c.cc.writtenElsewhere(inv, f.name) && c.cc.namesBase(inv, f.name) {
		return nil, opaque("config.written", who+" reads options from "+f.name+", which the same command may write, so what it holds cannot be read beforehand"), false
	}
	// Written whole from literal text by one run of the command (echo
	// 'enableScripts: false' > .yarnrc.yml after a cd): that text.
	if text, ok := c.cc.literalWrite(inv, f.name); ok {
		return []byte(text), Effect{}, true
	}
	data, failed, ok = c.readScript(inv, f.name, false)
	if !ok && !f.explicit && failed.Reasons != nil && failed.Reasons[0].Rule == "script.cwd" {
		// A default file after a cd: the one found there, which the
		// command does not write; nothing is known to be in it.
		return nil, Effect{}, false
	}
	if !ok {
		if failed.Reasons != nil {
			failed = opaque("config.unread", who+" reads options from "+f.name+", which cannot be read beforehand ("+failed.Reasons[0].Message+")")
		}
		return nil, failed, false
	}
	if len(data) > MaxConfigBytes {
		return nil, opaque("config.large", fmt.Sprintf("%s reads options from %s, larger than the %d KiB airlock reads", who, f.name, MaxConfigBytes>>10)), false
	}
	return data, Effect{}, true
}

// readConfigFile reads a configuration file that no run of the command
// names, from disk.
func (c *Classifier) readConfigFile(inv *shell.Invocation, f clientConfigFile) ([]byte, Effect, bool) {
	who := inv.Name()
	data, err := c.readFile(f.name)
	switch {
	case err == nil:
		if len(data) > MaxConfigBytes {
			return nil, opaque("config.large", fmt.Sprintf("%s reads options from %s, larger than the %d KiB airlock reads", who, f.name, MaxConfigBytes>>10)), false
		}
		return data, Effect{}, true
	case errors.Is(err, ErrTooLarge):
		return nil, opaque("config.large", fmt.Sprintf("%s reads options from %s, larger than the %d KiB airlock reads", who, f.name, MaxConfigBytes>>10)), false
	case errors.Is(err, fs.ErrNotExist):
		if f.explicit && c.dirUnknown && c.cc.changesDir() {
			return nil, opaque("config.cwd", "the command changes directory before "+who+" reads "+f.name+", so which file it reads cannot be known"), false
		}
		return nil, Effect{}, false
	}
	return nil, opaque("config.unread", who+" reads options from "+f.name+", which cannot be read beforehand ("+err.Error()+")"), false
}

// mentions reports whether a word of the command (after a program's name,
// or a redirection's target) holds s. The words are joined once, so that
// asking for every run of a long command stays linear.
func (cc *cmdContext) mentions(s string) bool {
	if cc == nil {
		return false
	}
	if !cc.wordsBuilt {
		cc.wordsBuilt = true
		var b strings.Builder
		for i := range cc.invs {
			o := &cc.invs[i]
			for j := 1; j < len(o.Args); j++ {
				b.WriteString(o.Args[j])
				b.WriteByte(0)
			}
			for _, r := range o.Redirects {
				b.WriteString(r.Target)
				b.WriteByte(0)
			}
			if o.Opaque != "" {
				b.WriteString(o.Opaque)
				b.WriteByte(0)
			}
		}
		cc.words = b.String()
	}
	return strings.Contains(cc.words, s) || cc.outer.mentions(s)
}

// namesBase reports whether a run of the command other than inv may name
// the file name by another spelling (mayName): a redirection or a word
// of a run that may write it.
func (cc *cmdContext) namesBase(inv *shell.Invocation, name string) bool {
	base := path.Base(name)
	for i := range cc.invs {
		o := &cc.invs[i]
		if o.Source == inv.Source && o.Line == inv.Line && o.Seq == inv.Seq && len(o.Args) == len(inv.Args) && len(o.Args) > 0 && o.Args[0] == inv.Args[0] {
			continue
		}
		if inv.Seq > 0 && o.Seq > inv.Seq || keepsContent(o) {
			continue
		}
		for _, r := range o.Redirects {
			if r.Writes() && mayName(r.Target, name, base) {
				return true
			}
		}
		for j, a := range o.Args {
			if j > 0 && mayName(a, name, base) {
				return true
			}
		}
	}
	return false
}

// mayName reports whether a word of the command may be another spelling
// of the file name: it holds base and is computed at run time, or spells
// a path of the same kind (both relative, or both under the home or
// absolute: ~/.curlrc and /home/u/.curlrc). A relative .npmrc is not the
// user's ~/.npmrc.
func mayName(w, name, base string) bool {
	if !strings.Contains(w, base) {
		return false
	}
	if strings.ContainsAny(w, "$`*?[") {
		return true
	}
	if path.Base(w) != base {
		return false // ~/.curlrc is not ~/.config/curlrc
	}
	rooted := func(p string) bool { return strings.HasPrefix(p, "/") || strings.HasPrefix(p, "~") }
	return rooted(w) == rooted(name)
}

// envOr returns a variable of the run's environment, or of the process
// the decision is for (the agent's, which the run inherits: the FS's
// Getenv, else airlock's own); dynamic says the run's value is
// known only at run time.
func (c *Classifier) envOr(inv *shell.Invocation, name string) (v string, dynamic, set bool) {
	if v, ok := inv.Getenv(name); ok {
		v = unquoteValue(v)
		return v, strings.ContainsAny(v, "$`"), true
	}
	if e, ok := c.FS.(interface{ Getenv(string) (string, bool) }); ok {
		v, set = e.Getenv(name)
		return v, false, set
	}
	v, set = os.LookupEnv(name)
	return v, false, set
}

// homeOf is the home directory a run sees: its HOME= or "~".
func homeOf(inv *shell.Invocation) (string, bool) {
	if v, ok := inv.Getenv("HOME"); ok {
		v = unquoteValue(v)
		return v, strings.ContainsAny(v, "$`")
	}
	return "~", false
}

// curlConfigFiles lists the files a curl run reads options from: the
// default one (every candidate, so that none is missed) unless -q or
// --disable comes first, and each -K/--config.
func (c *Classifier) curlConfigFiles(inv *shell.Invocation) []clientConfigFile {
	var out []clientConfigFile
	args := inv.Args[1:]
	if len(args) == 0 || args[0] != "-q" && args[0] != "--disable" {
		if v, dyn, ok := c.envOr(inv, "CURL_HOME"); ok && v != "" {
			out = append(out, clientConfigFile{name: path.Join(v, ".curlrc"), dynamic: dyn})
		}
		if v, dyn, ok := c.envOr(inv, "XDG_CONFIG_HOME"); ok && v != "" {
			out = append(out, clientConfigFile{name: path.Join(v, "curlrc"), dynamic: dyn})
		} else if h, dyn := homeOf(inv); h != "" {
			out = append(out, clientConfigFile{name: path.Join(h, ".config/curlrc"), dynamic: dyn})
		}
		if h, dyn := homeOf(inv); h != "" {
			out = append(out, clientConfigFile{name: path.Join(h, ".curlrc"), dynamic: dyn})
		}
	}
	p := curlOptions.Parse(args)
	for _, f := range p.Flags {
		if (f.Name == "-K" || f.Name == "--config") && f.HasValue && f.Value != "-" {
			out = append(out, clientConfigFile{name: f.Value, dynamic: inv.IsDynamic(1 + f.ValueIndex), explicit: true})
		}
	}
	return out
}

// curlConfigWords turns a curl configuration file into command-line words:
// "name = value", "name: value", "name value" or "--name value", a value
// in double quotes with backslash escapes; a line with a name alone is a
// switch.
func curlConfigWords(text string) []string {
	var words []string
	for _, line := range strings.Split(text, "\n") {
		line = strings.TrimSpace(strings.TrimSuffix(line, "\r"))
		if line == "" || line[0] == '#' {
			continue
		}
		i := strings.IndexAny(line, " \t=:")
		name, rest := line, ""
		if i >= 0 {
			name, rest = line[:i], strings.TrimLeft(line[i:], " \t")
			if rest != "" && (rest[0] == '=' || rest[0] == ':') {
				rest = strings.TrimLeft(rest[1:], " \t")
			}
		}
		if !strings.HasPrefix(name, "-") {
			name = "--" + name
		}
		words = append(words, name)
		if rest == "" {
			continue
		}
		if rest[0] == '"' {
			var b strings.Builder
			for k := 1; k < len(rest) && rest[k] != '"'; k++ {
				if rest[k] == '\\' && k+1 < len(rest) {
					k++
					switch rest[k] {
					case 't':
						b.WriteByte('\t')
					case 'n':
						b.WriteByte('\n')
					case 'r':
						b.WriteByte('\r')
					case 'v':
						b.WriteByte('\v')
					default:
						b.WriteByte(rest[k])
					}
					continue
				}
				b.WriteByte(rest[k])
			}
			words = append(words, b.String())
			continue
		}
		if j := strings.IndexAny(rest, " \t"); j >= 0 {
			rest = rest[:j]
		}
		words = append(words, rest)
	}
	return words
}

// wgetConfigFiles lists the files a wget run reads commands from: $WGETRC
// or ~/.wgetrc, and --config (which replaces them).
func (c *Classifier) wgetConfigFiles(inv *shell.Invocation) []clientConfigFile {
	p := wgetOptions.Parse(inv.Args[1:])
	var out []clientConfigFile
	for _, f := range p.Flags {
		if f.Name == "--config" && f.HasValue {
			out = append(out, clientConfigFile{name: f.Value, dynamic: inv.IsDynamic(1 + f.ValueIndex), explicit: true})
		}
	}
	if len(out) > 0 || p.Has("--no-config") {
		return out
	}
	if v, dyn, ok := c.envOr(inv, "WGETRC"); ok && v != "" {
		return []clientConfigFile{{name: v, dynamic: dyn, explicit: true}}
	}
	h, dyn := homeOf(inv)
	return []clientConfigFile{{name: path.Join(h, ".wgetrc"), dynamic: dyn}}
}

// wgetConfigWords turns wgetrc commands ("name = value"; the name's case,
// "_" and "-" do not matter) into command-line words: the commands that
// have an option of their own become it (output_document = F is -O F),
// the others -e name=value.
func wgetConfigWords(text string) []string {
	var words []string
	for _, line := range strings.Split(text, "\n") {
		line = strings.TrimSpace(strings.TrimSuffix(line, "\r"))
		if line == "" || line[0] == '#' {
			continue
		}
		k, v, _ := strings.Cut(line, "=")
		k = strings.ToLower(strings.NewReplacer("_", "", "-", "").Replace(strings.TrimSpace(k)))
		v = strings.TrimSpace(v)
		if len(v) >= 2 && (v[0] == '"' && v[len(v)-1] == '"' || v[0] == '\'' && v[len(v)-1] == '\'') {
			v = v[1 : len(v)-1]
		}
		if opt := wgetrcOption(k); opt != "" {
			words = append(words, opt, v)
			continue
		}
		words = append(words, "-e", k+"="+v)
	}
	return words
}

// wgetrcOption is the option a wgetrc command (normalised) is the same as,
// for the ones that name a file or send data.
func wgetrcOption(k string) string {
	switch k {
	case "outputdocument":
		return "--output-document"
	case "logfile":
		return "--output-file"
	case "dirprefix":
		return "--directory-prefix"
	case "postdata":
		return "--post-data"
	case "postfile":
		return "--post-file"
	case "bodydata":
		return "--body-data"
	case "bodyfile":
		return "--body-file"
	case "method":
		return "--method"
	case "header":
		return "--header"
	case "savecookies":
		return "--save-cookies"
	case "input":
		return "--input-file"
	}
	return ""
}

// literalWrite returns the text a run of the command other than inv
// writes to name whole, from literal text, before inv, when that run is
// the only one that names the file (by its base) and no write of the
// command goes to a place known only at run time. A cd does not matter:
// the name is the one the command types for both.
func (cc *cmdContext) literalWrite(inv *shell.Invocation, name string) (string, bool) {
	if cc == nil {
		return "", false
	}
	name = path.Clean(name)
	base := path.Base(name)
	writer := -1
	for i := range cc.invs {
		o := &cc.invs[i]
		if o.Source == inv.Source && o.Line == inv.Line && o.Seq == inv.Seq && len(o.Args) == len(inv.Args) && len(o.Args) > 0 && o.Args[0] == inv.Args[0] {
			continue
		}
		if inv.Seq > 0 && o.Seq > inv.Seq || keepsContent(o) {
			continue
		}
		for _, r := range o.Redirects {
			switch {
			case r.Dynamic && r.Writes():
				return "", false
			case path.Clean(r.Target) == name:
				if writer >= 0 || r.Op != ">" && r.Op != ">|" || o.InLoop {
					return "", false
				}
				writer = i
			case r.Writes() && strings.Contains(r.Target, base):
				return "", false
			}
		}
		if i == writer {
			continue
		}
		for j, a := range o.Args {
			if j > 0 && (strings.Contains(a, base) || o.IsDynamic(j) && mayWrite(o)[path.Clean(a)] > 0) {
				return "", false
			}
		}
	}
	if writer < 0 {
		return "", false
	}
	return literalOutput(&cc.invs[writer])
}
