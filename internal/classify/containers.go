package classify

import (
	"strings"

	"github.com/airlock-dev/airlock/internal/argv"
	"github.com/airlock-dev/airlock/internal/shell"
)

// This file reads the host paths a container run mounts (issue 24): a
// bind mount hands the container the source path to read and, unless it
// is read-only, to write. ContainerMounts reports them so that
// self-protection sees a write to each source (docker run -v
// ~/.claude:/c alpine sh -c 'echo > /c/settings.json' writes the hook
// settings). The command run in the container is classified by the
// container spec (container.go) as that command, so a container that
// mounts the project and runs git push is external like git push.
//
// Two mounts hand over more than a path, and are opaque: the engine's own
// socket (the container can start others mounting any host path) and a
// privileged container (it can mount the host's disks).

// Mount is one host path a container run mounts.
type Mount struct {
	// Source is the host path as written (~/.claude, $PWD, ./data).
	Source string
	// Target is the path inside the container.
	Target string
	// ReadOnly says the mount is read-only (:ro, readonly): the container
	// may read the source but not write it.
	ReadOnly bool
	// Dynamic says Source is known only at run time ($PWD, $(pwd)).
	Dynamic bool
	// Project says Source names the command's directory (., $PWD, $(pwd),
	// the git top level): the container works on the project.
	Project bool
	// Flag is the option that made the mount (-v, --volume, --mount).
	Flag string
}

// isEngine reports whether a program is a container engine whose run and
// create mount paths. A switch, not a map: it runs for every program run.
func isEngine(name string) bool {
	switch name {
	case "docker", "podman", "nerdctl", "finch":
		return true
	}
	return false
}

// ContainerMounts returns the host paths a run of a container engine
// (docker|podman|nerdctl run|create, docker compose run,
// docker-compose run) mounts with -v, --volume or --mount type=bind.
// Named volumes are not host paths and are left out.
func ContainerMounts(inv *shell.Invocation) []Mount {
	args, base, ok := containerRunWords(inv)
	if !ok {
		out := volumeCreateMounts(inv)
		out = append(out, buildReads(inv)...)
		return append(out, sandboxMounts(inv)...)
	}
	var out []Mount
	for i := 0; i < len(args); i++ {
		a := args[i]
		if a == "--" {
			break
		}
		if !strings.HasPrefix(a, "-") {
			if optionTakesValue(args, i) {
				continue
			}
			break // the image: the words after it are the command
		}
		name, v, has := strings.Cut(a, "=")
		switch {
		case name == "-v" || name == "--volume" || name == "--mount":
		case strings.HasPrefix(a, "-v") && !strings.HasPrefix(a, "--") && len(a) > 2:
			name, v, has = "-v", a[2:], true // -vSRC:DST
		default:
			continue
		}
		idx, ok := optionValue(args, &i, &v, has)
		if !ok {
			break
		}
		dynamic := inv.IsDynamic(base + idx)
		var m Mount
		if name == "--mount" {
			m, ok = parseMountOpt(v)
		} else {
			m, ok = parseVolumeOpt(v)
		}
		if !ok {
			continue
		}
		m.Flag = name
		m.Dynamic = dynamic && strings.ContainsAny(m.Source, "$`")
		m.Project = projectPath(m.Source)
		out = append(out, m)
	}
	return out
}

// containerRunWords finds the words after run or create in a container
// run, and their offset in inv.Args.
func containerRunWords(inv *shell.Invocation) ([]string, int, bool) {
	name := inv.Name()
	i := 1
	compose := name == "docker-compose" || name == "podman-compose"
	if !compose {
		if !isEngine(name) {
			return nil, 0, false
		}
		g := containerGlobal.Parse(inv.Args[1:])
		i = 1 + g.Rest
		if i < len(inv.Args) && inv.Args[i] == "container" {
			i++
		}
		if i < len(inv.Args) && inv.Args[i] == "compose" {
			compose = true
			i++
		}
	}
	if compose {
		if i >= len(inv.Args) {
			return nil, 0, false
		}
		g := containerComposeGlobal.Parse(inv.Args[i:])
		i += g.Rest
		if i >= len(inv.Args) || inv.Args[i] != "run" && inv.Args[i] != "create" {
			return nil, 0, false
		}
	} else if i >= len(inv.Args) || inv.Args[i] != "run" && inv.Args[i] != "create" {
		return nil, 0, false
	}
	return inv.Args[i+1:], i + 1, true
}

// optionTakesValue reports whether the word at i is the value of the
// option before it (-e X, --name web), so not the image.
func optionTakesValue(args []string, i int) bool {
	if i == 0 {
		return false
	}
	prev := args[i-1]
	if strings.Contains(prev, "=") || !strings.HasPrefix(prev, "-") {
		return false
	}
	if strings.HasPrefix(prev, "--") {
		for _, l := range containerRunArgs.Long {
			if l == prev {
				return true
			}
		}
		return false
	}
	// A short cluster takes a value when its last letter does (-it no,
	// -e yes, -itv yes).
	return len(prev) >= 2 && strings.IndexByte(containerRunArgs.Short, prev[len(prev)-1]) >= 0
}

// parseVolumeOpt reads -v SRC:DST[:OPTS]; a source that is not a path
// (a named volume) is not a host mount.
func parseVolumeOpt(v string) (Mount, bool) {
	v = unquote(v)
	parts := strings.Split(v, ":")
	if len(parts) < 2 {
		return Mount{}, false // an anonymous volume: -v /data
	}
	m := Mount{Source: unquote(parts[0]), Target: unquote(parts[1])}
	if len(parts) > 2 {
		for _, o := range strings.Split(parts[2], ",") {
			if o == "ro" || o == "readonly" {
				m.ReadOnly = true
			}
		}
	}
	return m, hostPathWord(m.Source)
}

// parseMountOpt reads --mount type=bind,src=…,dst=…[,readonly]. A volume
// whose driver options name a host path (volume-opt=device=PATH, with
// volume-opt=o=bind or type=none) is that path bound: the local driver
// mounts it (FINDINGS-5 L16).
func parseMountOpt(v string) (Mount, bool) {
	var m Mount
	typ := "volume"
	device := ""
	for _, kv := range strings.Split(unquote(v), ",") {
		k, val, _ := strings.Cut(kv, "=")
		switch strings.ToLower(strings.TrimSpace(k)) {
		case "volume-opt":
			if dk, dv, _ := strings.Cut(unquote(val), "="); dk == "device" && hostPathWord(unquote(dv)) {
				device = unquote(dv)
			}
		case "type":
			typ = val
		case "source", "src":
			m.Source = unquote(val)
		case "destination", "dst", "target":
			m.Target = unquote(val)
		case "readonly", "ro":
			m.ReadOnly = val == "" || val == "true" || val == "1"
		}
	}
	if typ == "volume" && device != "" {
		m.Source = device
		return m, true
	}
	return m, typ == "bind" && m.Source != ""
}

// hostPathWord reports whether a volume source names a host path rather
// than a named volume: it starts with /, ., ~ or a variable, or holds a
// slash.
func hostPathWord(s string) bool {
	return s != "" && (strings.ContainsAny(s[:1], "/.~$`") || strings.Contains(s, "/"))
}

// projectPath reports whether a mount source names the command's
// directory or the repository it is in.
func projectPath(s string) bool {
	if strings.Trim(s, "/") == "" {
		// "/" is the whole file system, not the project (FINDINGS-4 K9):
		// trimming its slash made it "", the form of no source at all.
		return false
	}
	switch strings.TrimSuffix(s, "/") {
	case ".", "$PWD", "${PWD}", "$(pwd)", "`pwd`", "$(git rev-parse --show-toplevel)", "`git rev-parse --show-toplevel`":
		return true
	}
	return false
}

func unquote(s string) string {
	if len(s) >= 2 && (s[0] == '"' && s[len(s)-1] == '"' || s[0] == '\'' && s[len(s)-1] == '\'') {
		return s[1 : len(s)-1]
	}
	return strings.Trim(s, `"'`)
}

// engineSockets are the sockets that control a container engine.
var engineSockets = []string{"docker.sock", "podman.sock", "containerd.sock", "buildkitd.sock", "nerdctl.sock"}

// containerMounts rates what a container run's mounts hand over: a
// reason for each host path (shared, as the run is), and opaque for the
// engine's socket and a privileged container.
func containerMounts(inv *shell.Invocation) Effect {
	args, _, ok := containerRunWords(inv)
	if !ok {
		return nothing
	}
	var e Effect
	for _, m := range ContainerMounts(inv) {
		for _, s := range engineSockets {
			if strings.HasSuffix(m.Source, "/"+s) {
				e.Add(opaque("container.engine-socket", inv.Name()+" mounts the engine's socket "+m.Source+": the container can start others that mount any host path"))
			}
		}
		how := "read and write"
		if m.ReadOnly {
			how = "read"
		}
		e.Add(shared("container.mount", inv.Name()+" mounts "+m.Source+" at "+m.Target+": the container may "+how+" it"))
	}
	e.Add(containerGitMounts(inv)) // containergit.go
	p := argv.Spec{Short: containerRunArgs.Short, Long: containerRunArgs.Long, StopAtOperand: true}.Parse(args)
	if p.Has("--volumes-from") {
		e.Add(opaque("container.volumes-from", inv.Name()+" --volumes-from mounts another container's volumes, whose host paths the command does not show"))
	}
	if p.Has("--privileged") {
		e.Add(opaque("container.privileged", inv.Name()+" --privileged gives the container the host's devices: it can mount any disk and path"))
	}
	return e
}

// ContainerRunsGivenCommand reports whether a container run names the
// command it runs after the image, with no --entrypoint in front of it:
// then that command is what runs (classify reads it as typed), and the
// image's own entrypoint does not. A run of an image's default command,
// or through another entrypoint, runs a program airlock does not read.
func ContainerRunsGivenCommand(inv *shell.Invocation) bool {
	args, _, ok := containerRunWords(inv)
	if !ok {
		return false
	}
	p := argv.Spec{Short: containerRunArgs.Short, Long: containerRunArgs.Long, StopAtOperand: true}.Parse(args)
	if p.Has("--entrypoint") {
		return false
	}
	// args[p.Rest] is the image; a command follows it.
	return p.Rest+1 < len(args)
}

// volumeCreateMounts reads "docker volume create --opt device=PATH" (with
// type=none, o=bind): a named volume backed by a host path, which any
// later container that mounts the volume by name reads and writes.
func volumeCreateMounts(inv *shell.Invocation) []Mount {
	if !isEngine(inv.Name()) {
		return nil
	}
	g := containerGlobal.Parse(inv.Args[1:])
	i := 1 + g.Rest
	if i+1 >= len(inv.Args) || inv.Args[i] != "volume" || inv.Args[i+1] != "create" {
		return nil
	}
	var out []Mount
	for j := i + 2; j < len(inv.Args); j++ {
		a := inv.Args[j]
		v := ""
		switch {
		case a == "--opt" || a == "-o":
			if j+1 < len(inv.Args) {
				j++
				v = inv.Args[j]
			}
		case strings.HasPrefix(a, "--opt="):
			v = strings.TrimPrefix(a, "--opt=")
		case strings.HasPrefix(a, "-o") && len(a) > 2:
			v = a[2:]
		}
		if dev, ok := strings.CutPrefix(unquote(v), "device="); ok && hostPathWord(dev) {
			out = append(out, Mount{Source: dev, Flag: "volume create --opt device", Dynamic: inv.IsDynamic(j) && strings.ContainsAny(dev, "$`")})
		}
	}
	return out
}

// optionValue finds an option's value, attached (--bind=SRC: has) or the
// next word, which *i then moves to; false when that word is missing. The
// container and sandbox readers share it.
func optionValue(args []string, i *int, v *string, has bool) (idx int, ok bool) {
	if has {
		return *i, true
	}
	if *i+1 >= len(args) {
		return *i, false
	}
	*i++
	*v = args[*i]
	return *i, true
}
