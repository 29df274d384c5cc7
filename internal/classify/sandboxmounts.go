package classify

import (
	"strings"

	"github.com/airlock-dev/airlock/internal/shell"
)

// This file reads the host paths that reach a container or a sandbox by
// other routes than docker run's -v and --mount (FINDINGS-5 L16): an
// image build's secrets and named contexts (docker build --secret
// id=k,src=FILE reads FILE into the build), and the binds of the
// user-space sandboxes proot, bwrap and systemd-nspawn, whose programs see
// each bound host path as their own. Each is reported as a Mount, so
// self-protection checks it as it checks a -v source.

// buildReads returns the files and directories an image build reads from
// the host beside its context: --secret src=FILE, --ssh id=PATH and
// --build-context name=PATH (docker|podman|nerdctl [buildx|image] build).
// They are read-only: the build reads them.
func buildReads(inv *shell.Invocation) []Mount {
	if !isEngine(inv.Name()) && inv.Name() != "buildah" {
		return nil
	}
	g := containerGlobal.Parse(inv.Args[1:])
	i := 1 + g.Rest
	for i < len(inv.Args) && (inv.Args[i] == "buildx" || inv.Args[i] == "image" || inv.Args[i] == "builder") {
		i++
	}
	if i >= len(inv.Args) || inv.Args[i] != "build" && inv.Args[i] != "bud" {
		return nil
	}
	var out []Mount
	for j := i + 1; j < len(inv.Args); j++ {
		a := inv.Args[j]
		name, v, has := strings.Cut(a, "=")
		switch name {
		case "--secret", "--ssh", "--build-context":
		default:
			continue
		}
		idx := j
		if !has {
			if j+1 >= len(inv.Args) {
				break
			}
			j++
			v, idx = inv.Args[j], j
		}
		dynamic := inv.IsDynamic(idx)
		for _, src := range buildSources(name, unquote(v)) {
			out = append(out, Mount{Source: src, ReadOnly: true, Flag: "build " + name, Dynamic: dynamic && strings.ContainsAny(src, "$`")})
		}
	}
	return out
}

// buildSources reads the host paths of one build option's value.
func buildSources(flag, v string) []string {
	var out []string
	switch flag {
	case "--secret":
		// id=k,src=FILE | id=k,source=FILE | id=k,env=VAR (no file) |
		// type=file,… ; podman also takes a bare FILE after id=k,src=.
		for _, kv := range strings.Split(v, ",") {
			k, val, _ := strings.Cut(kv, "=")
			if k == "src" || k == "source" {
				out = append(out, unquote(val))
			}
		}
	case "--ssh":
		// default | default=PATH[,PATH] | id=PATH
		if _, paths, ok := strings.Cut(v, "="); ok {
			for _, p := range strings.Split(paths, ",") {
				if hostPathWord(p) {
					out = append(out, unquote(p))
				}
			}
		}
	case "--build-context":
		// name=PATH | name=docker-image://… | name=https://… | name=oci-layout://…
		if _, p, ok := strings.Cut(v, "="); ok && !strings.Contains(p, "://") && hostPathWord(p) {
			out = append(out, unquote(p))
		}
	}
	return out
}

// sandboxMounts returns the host paths a user-space sandbox binds for
// the program it runs: proot -b/--bind/-m/--mount SRC[:DST], -r/--rootfs
// and -R ROOT (-R binds the home too); bwrap --bind, --ro-bind,
// --dev-bind (and their -try forms) SRC DST; systemd-nspawn
// --bind[-ro]=SRC[:DST] and -D/--directory ROOT.
func sandboxMounts(inv *shell.Invocation) []Mount {
	var out []Mount
	add := func(src, flag string, ro bool, idx int) {
		src = unquote(src)
		if src == "" {
			return
		}
		out = append(out, Mount{Source: src, ReadOnly: ro, Flag: flag, Dynamic: inv.IsDynamic(idx) && strings.ContainsAny(src, "$`")})
	}
	args := inv.Args
	switch inv.Name() {
	case "proot":
		for i := 1; i < len(args); i++ {
			a := args[i]
			name, v, has := strings.Cut(a, "=")
			switch {
			case name == "-b" || name == "--bind" || name == "-m" || name == "--mount" || name == "-r" || name == "--rootfs" || name == "-R":
			case len(a) > 2 && a[0] == '-' && a[1] != '-' && strings.IndexByte("bmr", a[1]) >= 0:
				name, v, has = a[:2], a[2:], true // -bSRC
			case !strings.HasPrefix(a, "-"):
				return out // the program proot runs
			default:
				continue
			}
			idx, ok := optionValue(args, &i, &v, has)
			if !ok {
				break
			}
			if name == "-r" || name == "--rootfs" || name == "-R" {
				add(v, "proot "+name, false, idx)
				if name == "-R" {
					out = append(out, Mount{Source: "~", Flag: "proot -R (it binds the home)"})
				}
				continue
			}
			src, _, _ := strings.Cut(v, ":")
			add(src, "proot "+name, false, idx)
		}
	case "bwrap":
		for i := 1; i+1 < len(args); i++ {
			switch a := args[i]; a {
			case "--bind", "--bind-try", "--dev-bind", "--dev-bind-try", "--ro-bind", "--ro-bind-try":
				add(args[i+1], "bwrap "+a, strings.HasPrefix(a, "--ro-"), i+1)
				i += 2
			}
		}
	case "singularity", "apptainer":
		// singularity exec -B SRC[:DST[:ro]][,SRC2…] IMAGE CMD, --bind,
		// --mount type=bind,src=…; each source is a mount.
		for i := 1; i < len(args); i++ {
			a := args[i]
			name, v, has := strings.Cut(a, "=")
			if name != "-B" && name != "--bind" && name != "--mount" {
				if !strings.HasPrefix(a, "-") && i > 1 {
					break // the image: what follows is the command
				}
				continue
			}
			idx, ok := optionValue(args, &i, &v, has)
			if !ok {
				break
			}
			if name == "--mount" {
				for _, kv := range strings.Split(v, ",") {
					if k, src, ok := strings.Cut(kv, "="); ok && (k == "src" || k == "source") {
						add(src, "singularity --mount", false, idx)
					}
				}
				continue
			}
			for _, spec := range strings.Split(v, ",") {
				src, rest, _ := strings.Cut(spec, ":")
				add(src, "singularity "+name, strings.HasSuffix(rest, ":ro"), idx)
			}
		}
	case "systemd-nspawn":
		for i := 1; i < len(args); i++ {
			a := args[i]
			name, v, has := strings.Cut(a, "=")
			switch name {
			case "--bind", "--bind-ro", "-D", "--directory":
			default:
				continue
			}
			idx, ok := optionValue(args, &i, &v, has)
			if !ok {
				break
			}
			src := v
			if name == "--bind" || name == "--bind-ro" {
				src, _, _ = strings.Cut(strings.TrimPrefix(v, "+"), ":")
			}
			add(src, "systemd-nspawn "+name, name == "--bind-ro", idx)
		}
	}
	return out
}
