package policy

import (
	"errors"
	"fmt"
	"io/fs"
	"path/filepath"

	"github.com/airlock-dev/airlock/internal/safefile"
	"github.com/airlock-dev/airlock/internal/strictyaml"
)

// Options say where to look for policy files and what to protect.
type Options struct {
	// Getenv reads the environment (os.Getenv in the binary).
	Getenv func(string) string
	// Cwd is where the project file is searched from, upwards.
	Cwd string
	// ProjectDir is the project root when the agent names it (Claude
	// Code's CLAUDE_PROJECT_DIR); it wins over the search from Cwd.
	ProjectDir string
	// Executable is the airlock binary, protected from the agent.
	Executable string
	// Protect lists more files the agent must not change, such as the
	// agent settings files airlock's hooks are installed in.
	Protect []string
	// MCP makes the schema of the "mcp:" section (mcpconfig.Schema),
	// which the MCP firewall owns. With it, Load compiles every layer's
	// section and a mistake there fails the load with the file's other
	// mistakes; every caller that decides tool calls sets it. Without it
	// the sections are kept as written, and mcpconfig.Of compiles them
	// when asked.
	MCP func() MCPSchema
	// Egress makes the schema of the "egress:" section, which the egress
	// proxy owns (egresssection.go), as MCP does for "mcp:".
	Egress func() EgressSchema
	// OtherHomes are more home directories of the same user whose
	// protected paths are guarded too (otherhomes.go): the resident
	// service's own HOME, when it decides for a hook process whose HOME
	// differs from it, is absent or is relative.
	OtherHomes []string
}

// Policy is the compiled policy in effect: decide actions with Decide.
type Policy struct {
	// Mode is the autonomy mode decisions are made in.
	Mode Mode
	// ModeOrigin is the layer that set Mode ("AIRLOCK_MODE" counts as user).
	ModeOrigin Origin
	// Tables holds the decision table of each mode set by the layers with
	// the user's authority; an allow rule of the user's relaxes it.
	Tables [numModes]Table
	// Snapshots bound the snapshots taken before destruction inside the
	// project, and their retention.
	Snapshots SnapshotSettings
	// floor holds what untrusted project files tightened the tables to;
	// no rule relaxes it.
	floor [numModes]Table
	// Rules lists every rule, built-in first, in file order.
	Rules []*Rule
	// Layers describes each layer that was considered.
	Layers []Layer
	// Paths are airlock's locations.
	Paths Paths
	// Gate configures the fact-forcing gate (the "gate:" section).
	Gate GateConfig
	// MCP is the "mcp:" section of each layer: MCP tool classes,
	// contacts and limits, whose schema internal/mcp/mcpconfig owns (read
	// it with mcpconfig.Of).
	MCP MCPSections
	// Egress is the "egress:" section of each layer: what the egress
	// proxy passes through, inspects and refuses (egresssection.go).
	Egress EgressSections
	// Notify is the user's "notify:" section as written, nil when there
	// is none; internal/notify decodes it (Section).
	Notify *Section
	home   string
	guard  guard
}

// Layer is one source of policy and what became of it.
type Layer struct {
	Origin Origin
	// File is the policy file ("" for the built-in layer).
	File string
	// Status says whether the file was found and with what authority.
	Status LayerStatus
	// Hash is the SHA-256 of the file's content, when it was read.
	Hash string
	// Rules counts the rules the layer added.
	Rules int
}

// LayerStatus is what became of one policy layer.
type LayerStatus int8

// The statuses of a layer.
const (
	// Absent: no file at that place.
	Absent LayerStatus = iota
	// Applied: the layer applies with full authority (built-in, user,
	// AIRLOCK_POLICY, or a project file the user trusted).
	Applied
	// Untrusted: a project file that may only tighten.
	Untrusted
	// Changed: a project file that was trusted but has changed since, so
	// it may only tighten until trusted again.
	Changed
)

var statusNames = [...]string{"absent", "applied", "untrusted (tightens only)", "changed since trusted (tightens only; review it and run airlock trust)"}

func (s LayerStatus) String() string {
	if int(s) < len(statusNames) {
		return statusNames[s]
	}
	return "status(?)"
}

// Load builds the policy in effect from the built-in defaults, the user's
// file and the project's file (or the one file named by AIRLOCK_POLICY).
// A missing file costs one failed open; only files that exist are parsed.
func Load(o Options) (*Policy, error) {
	getenv := o.Getenv
	if getenv == nil {
		getenv = func(string) string { return "" }
	}
	paths := PathsFrom(getenv)
	p := &Policy{Paths: paths, home: paths.Home}
	var mcp MCPSchema
	if o.MCP != nil {
		mcp = o.MCP()
		p.MCP.Schema = mcp
	}
	if o.Egress != nil {
		p.Egress.Schema = o.Egress()
	}
	for m := Mode(0); m < numModes; m++ {
		p.Tables[m] = DefaultTable(m)
	}
	p.Layers = append(p.Layers, Layer{Origin: Builtin, Status: Applied})
	builtins, err := compiledBuiltins(p.home)
	if err != nil {
		return nil, err
	}
	p.Rules = append(p.Rules, builtins...)
	p.Layers[0].Rules = len(p.Rules)

	projectRoot := FindProjectRoot(o.ProjectDir, o.Cwd)
	if paths.Explicit != "" {
		if err := p.apply(paths.Explicit, User, true, nil, mcp); err != nil {
			return nil, err
		}
	} else {
		// A mistake in the user's file does not hide those of the
		// project's: both are read, and every mistake is returned.
		userErr := p.apply(paths.UserFile, User, false, nil, mcp)
		var projectErr error
		if projectRoot != "" {
			projectErr = p.applyProject(filepath.Join(projectRoot, ProjectFile), mcp)
		}
		if err := errors.Join(userErr, projectErr); err != nil {
			return nil, err
		}
	}
	if s := getenv("AIRLOCK_MODE"); s != "" {
		m, err := ParseMode(s)
		if err != nil {
			return nil, fmt.Errorf("AIRLOCK_MODE: %w", err)
		}
		p.Mode, p.ModeOrigin = m, User
	}
	p.guard = newGuard(paths, projectRoot, o, getenv)
	p.guard.addOtherHomes(o.OtherHomes)
	p.guard.values = newSecretValues(p.guard.secrets.path, p.Notify)
	return p, nil
}

// Defaults returns the built-in policy alone: no files, no environment,
// interactive mode.
func Defaults() *Policy {
	p, err := Load(Options{})
	if err != nil {
		// The built-in layer is compiled from Go values that tests check;
		// failing here is a bug in airlock, not a user error.
		panic("policy: built-in defaults do not compile: " + err.Error())
	}
	return p
}

// Table returns the table in effect for a mode: the tables set with the
// user's authority, tightened by untrusted project files.
func (p *Policy) Table(m Mode) Table {
	t := p.Tables[m]
	for r := row(0); r < numRows; r++ {
		if f := *p.floor[m].at(r); f > *t.at(r) {
			*t.at(r) = f
		}
	}
	return t
}

// applyProject applies the project file with the authority its trust gives.
func (p *Policy) applyProject(file string, mcp MCPSchema) error {
	trust, err := LoadTrust(p.Paths.TrustFile())
	if err != nil {
		return err
	}
	return p.apply(file, Project, false, trust, mcp)
}

// apply reads one file and merges it into p. trust is nil for files with
// the user's authority; for a project file it decides whether the file may
// loosen. mcp, when not nil, compiles the "mcp:" sections.
func (p *Policy) apply(file string, origin Origin, required bool, trust *TrustStore, mcp MCPSchema) error {
	layer := Layer{Origin: origin, File: file}
	data, err := readLayer(file, origin)
	switch {
	case errors.Is(err, fs.ErrNotExist) && !required:
		p.Layers = append(p.Layers, layer)
		return nil
	case err != nil:
		return &FileError{File: file, Err: err}
	}
	layer.Hash = contentHash(data)
	layer.Status = Applied
	if trust != nil {
		switch abs, _ := filepath.Abs(file); trust.Files[abs] {
		case layer.Hash:
		case "":
			layer.Status = Untrusted
		default:
			layer.Status = Changed
		}
	}
	doc, err := cachedParse(file, layer.Hash, data, mcp, p.Egress.Schema)
	if err != nil {
		return err
	}
	n, err := p.merge(doc, origin, file, layer.Status == Applied)
	if err != nil {
		return err
	}
	layer.Rules = n
	p.Layers = append(p.Layers, layer)
	return nil
}

// MaxPolicyBytes bounds a policy file: a larger one is an error naming the
// limit. A checkout or an unpacked archive can bring in a project policy
// that is a link to /dev/zero or a FIFO; read without a limit it would
// exhaust memory or hang every hook call.
const MaxPolicyBytes = 1 << 20

// readLayer reads one policy file as a regular file within
// MaxPolicyBytes. A project's file must also stay inside the project once
// its links are resolved: a project cannot point its policy at a file it
// does not hold. The user's own file may be a link (dotfile managers
// make them), but not to a device or a FIFO.
func readLayer(file string, origin Origin) ([]byte, error) {
	o := safefile.ReadOptions{Limit: MaxPolicyBytes}
	if origin == Project {
		o.Within = filepath.Dir(filepath.Dir(file))
	}
	return safefile.ReadRegular(file, o)
}

// merge adds a parsed file. With authority the file sets the mode and
// table entries outright; without it (an untrusted project file) each may
// only become stricter.
func (p *Policy) merge(doc *fileDoc, origin Origin, file string, authority bool) (int, error) {
	if doc.mode != nil && (authority || *doc.mode > p.Mode) {
		p.Mode, p.ModeOrigin = *doc.mode, origin
	}
	for m := Mode(0); m < numModes; m++ {
		for r := row(0); r < numRows; r++ {
			e := doc.tables[m][r]
			if !e.set {
				continue
			}
			if authority {
				*p.Tables[m].at(r) = e.d
			} else if cur := p.floor[m].at(r); e.d > *cur {
				*cur = e.d
			}
		}
	}
	p.mergeGate(doc.gate, authority)
	p.mergeSnapshots(doc.snaps, authority)
	// Every mistake of the file is collected, so that one check names
	// them all.
	var errs []error
	if err := p.mergeNotify(doc.notify, origin, file); err != nil {
		errs = append(errs, err)
	}
	if err := p.MCP.keep(doc.mcp, doc.mcpMerge, file, authority); err != nil {
		errs = append(errs, err)
	}
	if err := p.Egress.keep(doc.egress, doc.egressMerge, file, authority); err != nil {
		errs = append(errs, err)
	}
	seen := map[string]bool{}
	for i := range doc.rules {
		d := &doc.rules[i]
		if seen[d.id] {
			errs = append(errs, &FileError{File: file, Line: d.line, Err: fmt.Errorf("%w: rule id %q used twice", ErrBadValue, d.id)})
			continue
		}
		seen[d.id] = true
		r, err := compileRule(d, origin, file, p.home)
		if err != nil {
			var le *strictyaml.LineError
			if !errors.As(err, &le) {
				err = &strictyaml.LineError{Line: d.line, Err: err}
			}
			errs = append(errs, err)
			continue
		}
		r.relaxes = authority && r.Decision == Allow
		p.Rules = append(p.Rules, r)
	}
	if len(errs) > 0 {
		return 0, strictyaml.InFile(file, errors.Join(errs...))
	}
	return len(doc.rules), nil
}
