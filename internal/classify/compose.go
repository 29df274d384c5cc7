package classify

import (
	"path"
	"strings"

	yaml "go.yaml.in/yaml/v3"

	"github.com/airlock-dev/airlock/internal/shell"
)

// This file reads what a compose run mounts (FINDINGS-3 H6): docker
// compose up|run|create|start starts the services of its compose files,
// and their volumes are host paths like -v's. The files are read at
// decision time: self-protection (policy) checks each bind source as a
// container mount; classify rates a file that cannot be read, or one
// the same command writes, as opaque (held), since what it mounts cannot
// be known. --volumes-from hands a container another's mounts, which are
// not on the command line: opaque too.

// composeStarts are the compose verbs that start containers.
func composeStarts(name string) bool {
	switch name {
	case "up", "run", "create", "start", "restart", "watch":
		return true
	}
	return false
}

// composeDefaults are the files compose reads when no -f is given, in
// the project directory.
var composeDefaults = []string{"compose.yaml", "compose.yml", "docker-compose.yaml", "docker-compose.yml",
	"compose.override.yaml", "compose.override.yml", "docker-compose.override.yaml", "docker-compose.override.yml"}

// ComposeRun is a compose run that starts containers: the files it
// reads, as named (relative to the command's directory, or to Dir when
// set), and whether they were named with -f (then each must exist).
type ComposeRun struct {
	Files []string
	// Dynamic marks the files named only at run time.
	Dynamic []bool
	// Named says the files came from -f/--file; else they are the
	// defaults, of which those that exist are read.
	Named bool
	// Dir is --project-directory, when given.
	Dir string
	// EnvFiles are the --env-file files, where compose also reads its
	// own variables (COMPOSE_FILE).
	EnvFiles []string
}

// Compose reports the compose files a run that starts containers reads
// (docker compose -f a.yml up, docker-compose run web, podman-compose
// up); ok is false for any other run.
func Compose(inv *shell.Invocation) (ComposeRun, bool) {
	name := inv.Name()
	i := 1
	switch {
	case name == "docker-compose" || name == "podman-compose":
	case isEngine(name):
		g := containerGlobal.Parse(inv.Args[1:])
		i = 1 + g.Rest
		if i >= len(inv.Args) || inv.Args[i] != "compose" {
			return ComposeRun{}, false
		}
		i++
	default:
		return ComposeRun{}, false
	}
	if i > len(inv.Args) {
		return ComposeRun{}, false
	}
	g := containerComposeGlobal.Parse(inv.Args[i:])
	verb := i + g.Rest
	if verb >= len(inv.Args) || !composeStarts(inv.Args[verb]) {
		return ComposeRun{}, false
	}
	var r ComposeRun
	for _, f := range g.Flags {
		if !f.HasValue {
			continue
		}
		switch f.Name {
		case "-f", "--file":
			r.Files = append(r.Files, f.Value)
			r.Dynamic = append(r.Dynamic, inv.IsDynamic(i+f.ValueIndex))
			r.Named = true
		case "--project-directory":
			r.Dir = f.Value
		case "--env-file":
			r.EnvFiles = append(r.EnvFiles, f.Value)
		}
	}
	if !r.Named {
		for _, n := range composeDefaults {
			name := n
			if r.Dir != "" {
				name = path.Join(r.Dir, n)
			}
			r.Files = append(r.Files, name)
			r.Dynamic = append(r.Dynamic, false)
		}
	}
	return r, true
}

// ComposeMounts returns the host paths a compose file's services mount:
// bind volumes in the short (SRC:DST[:ro]) and long (type: bind) syntax,
// and named volumes whose driver options bind a device path. why is set
// when the file hands over more than paths (volumes_from, a privileged
// service, the engine's socket), which makes it opaque. A file that does
// not parse is an error: what it mounts cannot be known.
func ComposeMounts(data []byte) (mounts []Mount, why string, err error) {
	var doc struct {
		Services map[string]struct {
			Volumes     []yaml.Node `yaml:"volumes"`
			VolumesFrom []string    `yaml:"volumes_from"`
			Privileged  bool        `yaml:"privileged"`
		} `yaml:"services"`
		Volumes map[string]struct {
			DriverOpts map[string]string `yaml:"driver_opts"`
		} `yaml:"volumes"`
	}
	if err := yaml.Unmarshal(data, &doc); err != nil {
		return nil, "", err
	}
	for svc, s := range doc.Services {
		if len(s.VolumesFrom) > 0 {
			why = "service " + svc + " takes volumes_from another container, whose mounts the file does not show"
		}
		if s.Privileged {
			why = "service " + svc + " is privileged: it can mount any host disk and path"
		}
		for _, v := range s.Volumes {
			var m Mount
			ok := false
			switch v.Kind {
			case yaml.ScalarNode:
				m, ok = parseVolumeOpt(v.Value)
			case yaml.MappingNode:
				var long struct {
					Type     string `yaml:"type"`
					Source   string `yaml:"source"`
					Target   string `yaml:"target"`
					ReadOnly bool   `yaml:"read_only"`
				}
				if v.Decode(&long) == nil && long.Type == "bind" && long.Source != "" {
					m, ok = Mount{Source: long.Source, Target: long.Target, ReadOnly: long.ReadOnly}, true
				}
			}
			if !ok {
				continue
			}
			m.Flag = "volumes (service " + svc + ")"
			m.Dynamic = strings.ContainsAny(m.Source, "$`")
			for _, sock := range engineSockets {
				if strings.HasSuffix(m.Source, "/"+sock) {
					why = "service " + svc + " mounts the engine's socket " + m.Source + ": it can start containers that mount any host path"
				}
			}
			mounts = append(mounts, m)
		}
	}
	for name, v := range doc.Volumes {
		if dev := v.DriverOpts["device"]; dev != "" && hostPathWord(dev) {
			mounts = append(mounts, Mount{Source: dev, Flag: "volumes (named volume " + name + ", driver_opts device)", Dynamic: strings.ContainsAny(dev, "$`")})
		}
	}
	return mounts, why, nil
}

// composeEffect rates what a compose run that starts containers mounts,
// from its files as the classifier can read them: a named file that the
// same command writes, that cannot be read, or that does not parse is
// opaque, as is one that hands over more than paths.
func composeEffect(c *Classifier, inv *shell.Invocation) Effect {
	r, ok := Compose(inv)
	if !ok {
		return nothing
	}
	var e Effect
	if !r.Named {
		// COMPOSE_FILE names the files instead of the defaults (FINDINGS-9
		// D1): from the environment, an --env-file, or the project's .env.
		if files, dyn, found := c.composeFileVar(inv, r); found {
			r.Files, r.Dynamic, r.Named = nil, nil, true
			for _, f := range files {
				if r.Dir != "" && !path.IsAbs(f) {
					f = path.Join(r.Dir, f)
				}
				r.Files = append(r.Files, f)
				r.Dynamic = append(r.Dynamic, dyn)
			}
		}
	}
	for k, f := range r.Files {
		if r.Dynamic[k] {
			e.Add(opaque("container.compose-file", inv.Name()+" reads a compose file named at run time ("+clip(f)+"); what it mounts cannot be known"))
			continue
		}
		data, failed, ok := c.readScript(inv, f, false)
		if !ok {
			if failed.Reasons != nil {
				e.Add(failed)
			}
			continue
		}
		mounts, why, err := ComposeMounts(data)
		switch {
		case err != nil:
			e.Add(opaque("container.compose-file", f+" does not parse ("+clip(err.Error())+"), so what it mounts cannot be known"))
		case why != "":
			e.Add(opaque("container.compose-file", f+": "+why))
		}
		base := path.Dir(f)
		if r.Dir != "" {
			base = r.Dir
		}
		for _, m := range mounts {
			if c.mounts != nil {
				k := m
				if !strings.HasPrefix(k.Source, "/") && !strings.HasPrefix(k.Source, "~") && !strings.HasPrefix(k.Source, "$") {
					k.Source = path.Join(base, k.Source)
				}
				k.Flag = f + " " + m.Flag
				*c.mounts = append(*c.mounts, k)
			}
			how := "read and write"
			if m.ReadOnly {
				how = "read"
			}
			e.Add(shared("container.mount", f+" mounts "+m.Source+" ("+m.Flag+"): the container may "+how+" it"))
		}
	}
	return e
}

// composeFileVar returns the files COMPOSE_FILE names for a compose run:
// the command's or the client's environment first, then the --env-file
// files, then the project's .env (compose reads its own variables there).
func (c *Classifier) composeFileVar(inv *shell.Invocation, r ComposeRun) (files []string, dynamic, found bool) {
	split := func(v string) []string {
		sep := ":"
		if s, _, ok := c.envOr(inv, "COMPOSE_PATH_SEPARATOR"); ok && s != "" {
			sep = s
		}
		var out []string
		for _, f := range strings.Split(v, sep) {
			if f = strings.TrimSpace(f); f != "" {
				out = append(out, f)
			}
		}
		return out
	}
	if v, dyn, ok := c.envOr(inv, "COMPOSE_FILE"); ok && v != "" {
		return split(v), dyn, true
	}
	envs := r.EnvFiles
	if len(envs) == 0 {
		envs = []string{".env"}
		if r.Dir != "" {
			envs = []string{path.Join(r.Dir, ".env")}
		}
	}
	for _, ef := range envs {
		data, failed, ok := c.readScript(inv, ef, false)
		if !ok {
			if failed.Reasons != nil {
				return []string{ef}, true, true // written by the command: unknown
			}
			continue
		}
		for _, line := range strings.Split(string(data), "\n") {
			t := strings.TrimPrefix(strings.TrimSpace(line), "export ")
			if v, ok := strings.CutPrefix(t, "COMPOSE_FILE="); ok {
				v = strings.Trim(strings.TrimSpace(v), `"'`)
				if v != "" {
					return split(v), strings.ContainsAny(v, "$`"), true
				}
			}
		}
	}
	return nil, false, false
}
