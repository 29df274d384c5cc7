package classify

import (
	"github.com/airlock-dev/airlock/internal/firstuse"
	"strings"

	"github.com/airlock-dev/airlock/internal/argv"
	"github.com/airlock-dev/airlock/internal/shell"
)

// This file covers container engines: docker, podman, nerdctl and compose.
// Pushing an image publishes it; pruning and removing volumes lose data;
// running and stopping containers changes shared state; listing and
// inspecting is local. Commands run inside a container with exec or run
// are classified too, since they act on the container's data.

// containerGlobal lists the options before the subcommand that take a
// value, for docker, podman and nerdctl together.
var containerGlobal = argv.Spec{
	Short: "cHlna",
	Long: []string{"--config", "--context", "--host", "--log-level", "--tlscacert", "--tlscert", "--tlskey",
		"--connection", "--url", "--identity", "--root", "--runroot", "--storage-driver", "--storage-opt",
		"--cgroup-manager", "--events-backend", "--hooks-dir", "--imagestore", "--module", "--network-cmd-path",
		"--network-config-dir", "--out", "--ssh", "--tmpdir", "--volumepath", "--runtime", "--runtime-flag",
		"--conmon", "--db-backend", "--namespace", "--address", "--snapshotter", "--cni-path", "--cni-netconfpath",
		"--data-root", "--host-gateway-ip"},
	StopAtOperand: true,
}

// containerComposeGlobal lists compose's options that take a value.
var containerComposeGlobal = argv.Spec{
	Short:         "fp",
	Long:          []string{"--file", "--project-name", "--project-directory", "--env-file", "--profile", "--ansi", "--parallel", "--progress"},
	StopAtOperand: true,
}

// containerRunArgs lists the options of run and create that take a value,
// so that the image and its command are found.
var containerRunArgs = argv.Spec{
	Short: "acehlmpuvw",
	Long: []string{"--attach", "--add-host", "--annotation", "--blkio-weight", "--blkio-weight-device", "--cap-add",
		"--cap-drop", "--cgroup-parent", "--cgroupns", "--cidfile", "--cpu-period", "--cpu-quota", "--cpu-rt-period",
		"--cpu-rt-runtime", "--cpu-shares", "--cpus", "--cpuset-cpus", "--cpuset-mems", "--detach-keys", "--device",
		"--device-cgroup-rule", "--device-read-bps", "--device-read-iops", "--device-write-bps", "--device-write-iops",
		"--dns", "--dns-option", "--dns-search", "--domainname", "--entrypoint", "--env", "--env-file", "--expose",
		"--gpus", "--group-add", "--health-cmd", "--health-interval", "--health-retries", "--health-start-period",
		"--health-start-interval", "--health-timeout", "--hostname", "--ip", "--ip6", "--ipc", "--isolation",
		"--kernel-memory", "--label", "--label-file", "--link", "--link-local-ip", "--log-driver", "--log-opt",
		"--mac-address", "--memory", "--memory-reservation", "--memory-swap", "--memory-swappiness", "--mount",
		"--name", "--network", "--net", "--network-alias", "--oom-score-adj", "--pid", "--pids-limit", "--platform",
		"--publish", "--pull", "--restart", "--runtime", "--security-opt", "--shm-size", "--stop-signal",
		"--stop-timeout", "--storage-opt", "--sysctl", "--tmpfs", "--ulimit", "--user", "--userns", "--uts",
		"--volume", "--volume-driver", "--volumes-from", "--workdir", "--pod", "--arch", "--os", "--variant",
		"--creds", "--authfile", "--secret", "--cgroups", "--init-path", "--requires", "--sdnotify", "--seccomp-policy",
		"--systemd", "--timezone", "--umask", "--uidmap", "--gidmap", "--subuidname", "--subgidname", "--rootfs",
		"--hostuser", "--image-volume", "--personality", "--preserve-fds", "--chrootdirs", "--decryption-key",
		"--env-merge", "--group-entry", "--passwd-entry", "--pidfile", "--rdt-class", "--retry", "--retry-delay",
		"--service-ports", "--index", "--cgroup-conf", "--blkio-weight-device", "--label", "--network-alias"},
	StopAtOperand: true,
}

// containerExecArgs lists the options of exec that take a value.
var containerExecArgs = argv.Spec{
	Short:         "euw",
	Long:          []string{"--env", "--env-file", "--user", "--workdir", "--detach-keys", "--preserve-fds", "--index"},
	StopAtOperand: true,
}

// containerReads lists subcommands (top level or inside a group) that only
// report or work on local images and files.
func containerReads(name string) bool {
	switch name {
	case "ps", "ls", "list", "images", "logs", "inspect", "version", "info", "stats", "top", "port",
		"diff", "events", "history", "wait", "export", "save", "load", "tag", "commit", "import", "df",
		"help", "config", "convert", "show", "du", "init", "exists", "healthcheck", "generate", "sbom",
		"untag", "tree", "container-diff", "completion", "images-ls", "annotate", "sign":
		return true
	}
	return false
}

// containerShared lists subcommands that change what runs on this machine.
var containerShared = firstuse.Table[map[string]string]{Build: func() map[string]string {
	return map[string]string{
		"run": "starts a container", "create": "creates a container", "start": "starts a container",
		"stop": "stops a container", "restart": "restarts a container", "kill": "kills a container",
		"pause": "pauses a container", "unpause": "resumes a container", "exec": "runs a command in a container",
		"attach": "attaches to a running container", "update": "changes a container", "rename": "renames a container",
		"up": "starts the services", "down": "stops and removes the services", "scale": "scales the services",
		"watch": "rebuilds and restarts services as files change", "checkpoint": "checkpoints a container",
		"restore": "restores a container", "mount": "mounts a container's file system", "unmount": "unmounts a container's file system",
		"login": "stores registry credentials", "logout": "removes registry credentials", "auto-update": "updates containers to newer images",
		"play": "starts pods from a Kubernetes file", "use": "switches the engine it talks to",
	}
}}

// containerSpec rates docker, podman, nerdctl and compose.
var containerSpec = &Spec{
	Programs: []string{"docker", "podman", "nerdctl", "docker-compose", "podman-compose", "finch"},
	Classify: classifyContainer,
	Examples: []Example{
		// publishing
		{"docker push me/img:1", "external"},
		{"podman push --creds u:p me/img:1 dir:/tmp/img", "local"},
		{"podman push me/img:1 docker://registry.example/me/img:1", "external"},
		{"podman push quay.io/me/img", "external"},
		{"docker image push me/img", "external"},
		{"docker -H tcp://10.0.0.5:2375 push me/img", "external"},
		{"docker buildx build --push -t me/img .", "external"},
		{"docker build --push -t me/img .", "external"},
		{"docker buildx build --output type=registry -t me/img .", "external"},
		{"docker buildx build -o type=image,name=me/img,push=true .", "external"},
		{"docker buildx bake --push", "external"},
		{"docker buildx imagetools create -t me/img:latest me/img:1", "external"},
		{"docker manifest push me/img:1", "external"},
		{"docker compose push", "external"},
		{"docker-compose build --push", "external"},
		{"docker trust sign me/img:1", "external"},
		{"nerdctl push me/img", "external"},
		// destruction
		{"docker system prune -af", "local+destructive"},
		{"docker system prune", "local+destructive"},
		{"docker system prune -a --volumes", "local+destructive"},
		{"docker image prune -a", "local+destructive"},
		{"docker container prune -f", "local+destructive"},
		{"docker volume prune", "local+destructive"},
		{"docker builder prune --all", "local+destructive"},
		{"docker buildx prune -f", "local+destructive"},
		{"docker network prune", "local+destructive"},
		{"docker volume rm data", "local+destructive"},
		{"podman volume remove data", "local+destructive"},
		{"docker rm -f web", "local+destructive"},
		{"docker rm -v web", "local+destructive"},
		{"docker container rm --force web", "local+destructive"},
		{"docker rmi -f me/img", "local+destructive"},
		{"podman system reset", "local+destructive"},
		{"podman pod rm -f mypod", "local+destructive"},
		{"podman machine rm -f", "local+destructive"},
		{"docker compose down -v", "shared+destructive"},
		{"docker compose down --volumes", "shared+destructive"},
		{"docker-compose -f prod.yml down -v", "shared+destructive"},
		{"docker exec db psql -c 'DROP TABLE users'", "shared+destructive"},
		{"docker exec -it app sh -c 'rm -rf /data'", "shared+destructive"},
		{"docker compose exec db mysql -e 'TRUNCATE orders'", "shared+destructive"},
		{"docker run --rm -v $PWD:/w alpine rm -rf /w", "shared+destructive"},
		// shared: what runs on this machine
		{"docker run -d -p 80:80 nginx", "shared"},
		{"docker run --rm -it -e A=1 --name x ubuntu bash", "shared"},
		{"docker create --name web nginx", "shared"},
		{"docker start web", "shared"},
		{"docker stop web", "shared"},
		{"docker restart web", "shared"},
		{"docker kill web", "shared"},
		{"docker exec web ls /", "shared"},
		{"docker build -t me/img .", "shared"},
		{"docker compose up -d", "shared"},
		{"docker-compose up --build", "shared"},
		{"docker compose down", "shared"},
		{"docker compose -p app -f a.yml restart web", "shared"},
		{"docker login ghcr.io", "shared"},
		{"docker context use remote", "shared"},
		{"docker network create backend", "shared"},
		{"docker cp ./config.yml web:/etc/app/", "shared"},
		{"docker exec web git push", "external"},
		{"podman kube play pod.yaml", "shared"},
		{"docker -H ssh://me@prod.example.com run -d nginx", "external"},
		{"DOCKER_HOST=tcp://build.example.com:2376 docker compose up -d", "external"},
		{"docker --context prod ps", "local"},
		{"DOCKER_HOST=tcp://10.0.3.7:2375 docker rm -f web", "external+destructive"},
		{"docker -H ssh://me@prod.example.com volume rm data", "external+destructive"},
		// network reads
		{"docker pull nginx:latest", "local+netread"},
		{"docker image pull alpine", "local+netread"},
		{"docker compose pull", "local+netread"},
		{"docker search redis", "local+netread"},
		{"docker -H tcp://10.0.0.5:2375 ps", "local+netread"},
		// local
		{"docker ps", "local"},
		{"docker ps -a", "local"},
		{"docker images", "local"},
		{"docker image ls", "local"},
		{"docker logs -f web", "local"},
		{"docker inspect web", "local"},
		{"docker version", "local"},
		{"docker info", "local"},
		{"docker stats --no-stream", "local"},
		{"docker tag me/img:1 me/img:latest", "local"},
		{"docker save -o img.tar me/img", "local"},
		{"docker load -i img.tar", "local"},
		{"docker rm web", "local"},
		{"docker rmi me/img", "local"},
		{"docker volume ls", "local"},
		{"docker volume create data", "local"},
		{"docker network ls", "local"},
		{"docker system df", "local"},
		{"docker cp web:/var/log/app.log .", "local"},
		{"docker compose ps", "local"},
		{"docker compose logs -f", "local"},
		{"docker compose config", "local"},
		{"docker compose --dry-run down -v", "local"},
		{"docker context ls", "local"},
		{"docker buildx ls", "local"},
		{"docker push --help", "local"},
		{"docker", "local"},
		{"docker --version", "local"},
		{"podman ps", "local"},
		{"nerdctl images", "local"},
		{"echo 'docker system prune -af'", "local"},
		// mounts (containers.go): the engine's socket and a privileged
		// container hand over every host path; a project mount runs the
		// command on the project, rated as that command.
		{"docker run -v /var/run/docker.sock:/var/run/docker.sock alpine true", "shared+opaque"},
		{"docker run --privileged alpine true", "shared+opaque"},
		{"docker run -v $PWD:/w img git push", "external"},
		{"docker run --rm -v \"$(pwd)\":/w -w /w golang go test ./...", "shared"},
		{"podman run --mount type=bind,src=/srv/data,dst=/d alpine true", "shared"},
		{"docker compose run -v ./data:/data web rm -rf /data", "shared+destructive"},
	},
}

// containerRemote reports the daemon host when the engine is told to talk
// to another machine (-H tcp://…, ssh://…, DOCKER_HOST=…).
func containerRemote(inv *shell.Invocation, g argv.Parsed) (string, bool) {
	check := func(u string) (string, bool) {
		if h, ok := sqlURLHost(u); ok && (strings.HasPrefix(u, "tcp://") || strings.HasPrefix(u, "ssh://") || strings.HasPrefix(u, "http")) {
			return h, !sqlHostLocal(h)
		}
		return "", false
	}
	if f, ok := g.Last("-H", "--host", "--url", "--address"); ok {
		if inv.IsDynamic(1 + f.ValueIndex) {
			return f.Value, true
		}
		return check(f.Value)
	}
	if v, ok := sqlEnvHost(inv, "DOCKER_HOST"); ok {
		return check(v)
	}
	if v, ok := sqlEnvHost(inv, "CONTAINER_HOST"); ok {
		return check(v)
	}
	return "", false
}

// classifyContainer finds the subcommand after the engine's global
// options, rates it, and raises a change to external when the engine runs
// on another machine (-H, DOCKER_HOST).
func classifyContainer(c *Classifier, inv *shell.Invocation) Effect {
	name := inv.Name()
	if hasAny(inv.Args[1:], "--help") {
		return nothing
	}
	var e Effect
	host, remote := "", false
	if name == "docker-compose" || name == "podman-compose" {
		host, remote = containerRemote(inv, argv.Parsed{})
		e = containerCompose(c, inv, 1)
	} else {
		g := containerGlobal.Parse(inv.Args[1:])
		host, remote = containerRemote(inv, g)
		i := 1 + g.Rest
		switch {
		case i >= len(inv.Args):
			return nothing // docker --version, bare docker
		case inv.IsDynamic(i):
			return opaque("container.dynamic", name+"'s subcommand is computed at run time ("+inv.Args[i]+")")
		}
		e = containerSub(c, inv, i)
	}
	// What the run's mounts hand over (containers.go), and its compose
	// files' (compose.go).
	e.Add(containerMounts(inv))
	e.Add(composeEffect(c, inv))
	if remote {
		switch {
		case e.Tier == Shared, e.Tier == Local && e.Destructive:
			// What a remote engine loses, it loses on that machine.
			e.Tier = External
			e.Reasons = append([]Reason{{"container.remote", name + " talks to the engine on " + host + ", another machine"}}, e.Reasons...)
		case e.Tier == Local && !e.Destructive:
			e.NetworkRead = true
		}
	}
	return e
}

// containerSub rates the subcommand at index i and its arguments.
func containerSub(c *Classifier, inv *shell.Invocation, i int) Effect {
	name := inv.Name()
	sub := inv.Args[i]
	args := inv.Args[i+1:]
	group := ""
	switch sub {
	case "container", "image", "volume", "network", "system", "builder", "buildx", "context", "manifest", "trust",
		"plugin", "swarm", "node", "service", "stack", "secret", "pod", "machine", "kube", "scout", "farm", "artifact", "namespace":
		group = sub
		if len(args) == 0 || strings.HasPrefix(args[0], "-") {
			return nothing
		}
		i++
		sub, args = inv.Args[i], inv.Args[i+1:]
	case "compose":
		return containerCompose(c, inv, i+1)
	case "config":
		if name == "docker" {
			group = "swarm-config"
			if len(args) == 0 {
				return nothing
			}
			i++
			sub, args = inv.Args[i], inv.Args[i+1:]
		}
	case "unshare":
		if name == "podman" && len(args) > 0 {
			return c.nested(inv.Text(i + 1))
		}
	}
	what := name + " " + sub
	switch group {
	case "":
	case "swarm-config":
		what = name + " config " + sub
	default:
		what = name + " " + group + " " + sub
	}
	switch {
	case sub == "push":
		return containerPush(what, args)
	case sub == "pull":
		return netRead("container.pull", what+" downloads from a registry")
	case sub == "search":
		return netRead("container.search", what+" queries a registry")
	case sub == "prune":
		return local("container.prune", what+" deletes every unused "+containerPruned(group)).destroys()
	case sub == "build" || sub == "b" && group == "buildx":
		return containerBuild(what, args)
	}
	switch group {
	case "volume":
		switch sub {
		case "rm", "remove":
			return local("container.volume-rm", what+" deletes the volume and its data").destroys()
		case "create", "ls", "list", "inspect", "exists", "export", "import", "mount", "unmount", "reload":
			return nothing
		}
	case "image":
		switch sub {
		case "rm", "remove":
			return containerRemove(what, args, false)
		case "scp":
			return external("container.image-scp", what+" copies an image to another host")
		case "sign", "trust", "mount", "unmount", "tree":
			return nothing
		}
	case "container", "pod":
		switch sub {
		case "rm", "remove":
			return containerRemove(what, args, true)
		}
	case "system":
		switch sub {
		case "reset":
			return local("container.reset", what+" deletes every container, image and volume").destroys()
		case "df", "info", "events", "dial-stdio":
			return nothing
		case "connection":
			if len(args) > 0 && (args[0] == "ls" || args[0] == "list") {
				return nothing
			}
			return shared("container.connection", what+" changes which engine it talks to")
		}
		return shared("container.system", what+" changes the container engine")
	case "network":
		switch sub {
		case "ls", "list", "inspect", "exists":
			return nothing
		}
		return shared("container.network", what+" changes container networking")
	case "buildx", "builder":
		switch sub {
		case "bake":
			if containerPushes(args) {
				return external("container.push", what+" --push publishes images to a registry")
			}
			return shared("container.build", what+" builds images")
		case "imagetools":
			if len(args) > 0 && args[0] == "create" && !hasAny(args, "--dry-run") {
				return external("container.push", what+" create publishes a manifest to a registry")
			}
			return netRead("container.imagetools", what+" reads from a registry")
		case "ls", "inspect", "du", "version", "history", "dial-stdio":
			return nothing
		case "rm", "stop":
			return nothing
		}
		return shared("container.builder", what+" changes the builders")
	case "manifest":
		switch sub {
		case "inspect":
			return netRead("container.manifest", what+" reads from a registry")
		case "create", "annotate", "add", "rm", "remove", "exists":
			return nothing
		}
	case "trust":
		switch sub {
		case "inspect":
			return netRead("container.trust", what+" reads from a registry")
		}
		return external("container.trust", what+" changes signatures on a registry")
	case "plugin":
		switch sub {
		case "ls", "list", "inspect":
			return nothing
		case "install":
			return shared("container.plugin", what+" installs an engine plugin").reads()
		}
		return shared("container.plugin", what+" changes engine plugins")
	case "context":
		switch sub {
		case "ls", "list", "inspect", "show", "export":
			return nothing
		}
		return shared("container.context", what+" changes which engine it talks to")
	case "machine":
		switch sub {
		case "rm", "remove", "reset":
			return local("container.machine-rm", what+" deletes the virtual machine with its containers and images").destroys()
		case "ls", "list", "inspect", "info":
			return nothing
		}
		return shared("container.machine", what+" changes the engine's virtual machine")
	case "kube":
		switch sub {
		case "generate":
			return nothing
		case "apply":
			return external("container.kube-apply", what+" deploys to a Kubernetes cluster")
		}
		return shared("container.kube", what+" starts or stops pods")
	case "scout":
		return netRead("container.scout", what+" queries Docker's image analysis service")
	case "artifact":
		switch sub {
		case "ls", "list", "inspect", "extract":
			return nothing
		case "rm", "remove":
			return local("container.artifact-rm", what+" deletes an artifact")
		}
		return shared("container.artifact", what+" changes artifacts")
	case "swarm", "node", "service", "stack", "secret", "swarm-config", "farm", "namespace":
		switch sub {
		case "ls", "list", "ps", "inspect", "logs", "exists", "ca":
			return nothing
		}
		return shared("container.cluster", what+" changes the cluster")
	}
	switch sub {
	case "rm":
		return containerRemove(what, args, true)
	case "rmi":
		return containerRemove(what, args, false)
	case "cp":
		ops := operandsOf(args)
		if len(ops) >= 2 && containerPath(ops[len(ops)-1]) {
			return shared("container.cp", what+" copies files into a container")
		}
		return nothing
	case "run", "create":
		return containerInner(c, inv, i+1, containerRunArgs, what, containerShared.Get()[sub])
	case "exec":
		return containerInner(c, inv, i+1, containerExecArgs, what, containerShared.Get()[sub])
	}
	if containerReads(sub) {
		return nothing
	}
	if msg, ok := containerShared.Get()[sub]; ok {
		return shared("container.run", what+" "+msg)
	}
	if name := inv.Name(); name == "docker" && c != nil && i < len(inv.Args) && inv.Args[i] == sub && validExtension(sub) {
		// A CLI plugin: docker NAME runs docker-NAME from the plugin
		// directories, classified as that program.
		return c.extensionRun(inv, i, "docker-").through("container.plugin", "docker "+sub+" runs the CLI plugin docker-"+sub)
	}
	return shared("container.unknown", what+" is not a subcommand airlock knows (a plugin?), so it may change state")
}

// containerPruned names what a prune of a group deletes.
func containerPruned(group string) string {
	switch group {
	case "":
		return "object"
	case "system":
		return "container, network, image and build cache"
	case "builder", "buildx":
		return "build cache"
	}
	return group
}

// containerRemove rates rm and rmi: removing a stopped container or an
// image is routine; forcing it (killing a running container, untagging an
// image in use) or deleting its volumes loses data.
func containerRemove(what string, args []string, container bool) Effect {
	p := argv.Spec{Short: "t", Long: []string{"--time", "--depend"}}.Parse(args)
	if p.Has("-f", "--force") {
		return local("container.rm-force", what+" -f deletes even what is running or in use").destroys()
	}
	if container && p.Has("-v", "--volumes") {
		return local("container.rm-volumes", what+" -v deletes the container's volumes").destroys()
	}
	return nothing
}

// containerPath reports whether a docker cp operand names a path inside a
// container (name:/path) rather than on this machine.
func containerPath(s string) bool {
	i := strings.IndexByte(s, ':')
	return i > 0 && !strings.HasPrefix(s, "/") && !strings.HasPrefix(s, ".") && !strings.ContainsRune(s[:i], '/')
}

// containerPushes reports whether build options send the result to a
// registry: --push, or an output of type registry or with push=true.
// containerPush rates a push: to a registry it publishes; to a local
// transport (podman push IMG dir:/tmp/x) it writes the image to this
// machine. args are the words after "push".
func containerPush(what string, args []string) Effect {
	p := argv.Spec{Long: []string{"--authfile", "--cert-dir", "--creds", "--digestfile", "--format", "--sign-by", "--encryption-key", "--compression-format", "--platform"}}.Parse(args)
	if len(p.Operands) >= 2 {
		for _, t := range []string{"dir:", "oci:", "oci-archive:", "docker-archive:", "containers-storage:", "docker-daemon:"} {
			if strings.HasPrefix(p.Operands[1], t) {
				return local("container.push.local", what+" to "+t+" writes the image to this machine")
			}
		}
	}
	return external("container.push", what+" publishes to a registry")
}

func containerPushes(args []string) bool {
	for i, a := range args {
		if a == "--push" {
			return true
		}
		v := ""
		switch {
		case strings.HasPrefix(a, "--output="):
			v = a[len("--output="):]
		case strings.HasPrefix(a, "-o") && len(a) > 2:
			v = a[2:]
		case (a == "--output" || a == "-o") && i+1 < len(args):
			v = args[i+1]
		case strings.HasPrefix(a, "--set=") || a == "--set" && i+1 < len(args):
			v = strings.TrimPrefix(a, "--set=")
			if a == "--set" {
				v = args[i+1]
			}
			if strings.HasSuffix(v, ".push=true") || strings.Contains(v, "output=type=registry") {
				return true
			}
			continue
		default:
			continue
		}
		if strings.Contains(v, "type=registry") || strings.Contains(v, "push=true") {
			return true
		}
	}
	return false
}

// containerBuild rates a build: pushing the result publishes it.
func containerBuild(what string, args []string) Effect {
	if containerPushes(args) {
		return external("container.push", what+" publishes the image it builds to a registry")
	}
	return shared("container.build", what+" builds an image")
}

// containerInner rates run, create and exec: the container change itself,
// plus whatever the command given to the container does (it acts on the
// container's data and on any directory mounted into it).
func containerInner(c *Classifier, inv *shell.Invocation, from int, spec argv.Spec, what, msg string) Effect {
	e := shared("container.run", what+" "+msg)
	if from > len(inv.Args) {
		return e
	}
	p := spec.Parse(inv.Args[from:])
	start := from + p.Rest + 1 // skip the image or container name
	if start < len(inv.Args) {
		var in Effect
		if p.Has("-i", "--interactive") {
			// -i hands the command the input docker is fed (docker exec
			// -i c sh < x.sh): the command line is the runner's, and
			// what feeds it is inv's (stdinfeed.go).
			in = c.nestedIn(inv, inv.Text(start))
		} else {
			in = c.nested(inv.Text(start))
		}
		e.Add(in)
		e.Add(containerHostWrites(inv, spec, from, in)) // containergit.go
	}
	return e
}

// containerComposeWhat names compose for messages.
func containerComposeWhat(inv *shell.Invocation) string {
	if inv.Name() == "docker-compose" || inv.Name() == "podman-compose" {
		return inv.Name()
	}
	return inv.Name() + " compose"
}

// containerCompose rates a compose subcommand; from is the index of the
// first word after "compose" (or after docker-compose).
func containerCompose(c *Classifier, inv *shell.Invocation, from int) Effect {
	if from >= len(inv.Args) {
		return nothing
	}
	g := containerComposeGlobal.Parse(inv.Args[from:])
	if g.Has("--dry-run") {
		return nothing
	}
	i := from + g.Rest
	if i >= len(inv.Args) {
		return nothing
	}
	sub, args := inv.Args[i], inv.Args[i+1:]
	what := containerComposeWhat(inv) + " " + sub
	switch sub {
	case "push", "publish":
		return external("container.push", what+" publishes images to a registry")
	case "alpha":
		if len(args) > 0 && args[0] == "publish" {
			return external("container.push", what+" publish publishes the project to a registry")
		}
		return nothing
	case "pull":
		return netRead("container.pull", what+" downloads images from a registry")
	case "build":
		return containerBuild(what, args)
	case "down":
		if hasAny(args, "-v", "--volumes") {
			return shared("container.compose-volumes", what+" -v stops the services and deletes their volumes").destroys()
		}
		return shared("container.run", what+" stops and removes the services")
	case "rm":
		if hasAny(args, "-v", "--volumes") {
			return shared("container.compose-volumes", what+" -v deletes the services' anonymous volumes").destroys()
		}
		return shared("container.run", what+" removes stopped service containers")
	case "exec":
		return containerInner(c, inv, i+1, argv.Spec{Short: "euw", Long: []string{"--env", "--user", "--workdir", "--index"}, StopAtOperand: true}, what, "runs a command in a service")
	case "run":
		return containerInner(c, inv, i+1, argv.Spec{Short: "eluwpv", Long: []string{"--env", "--label", "--name",
			"--entrypoint", "--publish", "--pull", "--user", "--volume", "--workdir", "--cap-add", "--cap-drop", "--env-from-file"},
			StopAtOperand: true}, what, "runs a one-off service container")
	case "cp":
		ops := operandsOf(args)
		if len(ops) >= 2 && containerPath(ops[len(ops)-1]) {
			return shared("container.cp", what+" copies files into a service")
		}
		return nothing
	case "ps", "ls", "logs", "config", "convert", "images", "top", "port", "version", "events", "stats", "wait", "viz":
		return nothing
	}
	if msg, ok := containerShared.Get()[sub]; ok {
		return shared("container.run", what+" "+msg)
	}
	return shared("container.run", what+" changes the services")
}
