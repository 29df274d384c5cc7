package classify

import (
	"strings"

	"github.com/airlock-dev/airlock/internal/argv"
	"github.com/airlock-dev/airlock/internal/shell"
)

// This file rates registry, release, storage and tunnel tools by a table
// of their verbs: the first one or two operands name what the tool does
// (crane push, regctl image copy, cloudflared tunnel run). A verb missing
// from a tool's table gets the tool's default; each table is data, with
// the examples every spec ships.

// verbEffect is what a verb does: how far it reaches and whether it loses
// data. Messages are built from the tool and the verb.
type verbEffect int8

const (
	vLocal verbEffect = iota
	vRead
	vInstall
	vWrite
	vDelete
	vLocalDelete
	vShared
	vSharedDelete
)

// verbTable rates one family of tools.
type verbTable struct {
	programs []string
	// opts lists the tool's options that take a separate value, so their
	// values are not read as verbs.
	opts argv.Spec
	// verbs maps "verb" or "verb sub" to an effect. The key "" rates the
	// tool run with no operand.
	verbs verbList
	// def rates a verb not in the table.
	def verbEffect
	// dry lists options that make any verb only rehearse (--dry-run).
	dry []string
	// what names the kind of place the tool writes to, for messages.
	what string
	// refine, when set, may change the effect from the whole argv.
	refine func(inv *shell.Invocation, p argv.Parsed, verb string, e verbEffect) verbEffect
	// examples are the spec's examples (Spec.Examples).
	examples []Example
}

// verbList is a verb table's verbs: a list rather than a map, so that the
// tables (registryTables and the like) are data the compiler lays out in
// the binary, where a map literal is hashed and inserted entry by entry
// at run time, in every process that classifies (a hook call decides
// once per process). A table has a few dozen verbs at most and is read
// once per invocation of its tool. TestVerbListsUnique holds each list
// to one effect per verb, as a map literal's keys were.
type verbList []verbPair

type verbPair struct {
	verb   string
	effect verbEffect
}

// get is the effect of verb, if the list has it.
func (l verbList) get(verb string) (verbEffect, bool) {
	for _, p := range l {
		if p.verb == verb {
			return p.effect, true
		}
	}
	return vLocal, false
}

func (t *verbTable) classify(_ *Classifier, inv *shell.Invocation) Effect {
	name := inv.Name()
	args := inv.Args[1:]
	if hasAny(args, "--help", "--version") && !hasAny(args, "--") {
		return nothing
	}
	p := t.opts.Parse(args)
	ops := p.Operands
	verb, e := "", vLocal
	found := false
	if len(ops) >= 2 {
		if v, ok := t.verbs.get(ops[0] + " " + ops[1]); ok {
			verb, e, found = ops[0]+" "+ops[1], v, true
		}
	}
	if !found && len(ops) >= 1 {
		if v, ok := t.verbs.get(ops[0]); ok {
			verb, e, found = ops[0], v, true
		}
	}
	if !found {
		if len(ops) == 0 {
			e, _ = t.verbs.get("")
		} else {
			verb, e = ops[0], t.def
		}
	}
	if t.refine != nil {
		e = t.refine(inv, p, verb, e)
	}
	for _, d := range t.dry {
		if hasAny(args, d) || strings.HasPrefix(d, "--") && hasPrefixArg(args, d+"=") {
			if e == vWrite || e == vDelete {
				return nothing
			}
		}
	}
	cmd := strings.TrimSpace(name + " " + verb)
	rule := "registry." + name
	switch e {
	case vRead:
		return netRead(rule, cmd+" reads from "+t.what)
	case vInstall:
		return shared(rule, cmd+" installs from "+t.what).reads()
	case vWrite:
		return external(rule, cmd+" writes to "+t.what)
	case vDelete:
		return external(rule, cmd+" deletes from "+t.what).destroys()
	case vLocalDelete:
		return local(rule, cmd+" deletes local data").destroys()
	case vShared:
		return shared(rule, cmd+" changes "+t.what+" on this machine")
	case vSharedDelete:
		return shared(rule, cmd+" deletes from "+t.what+" on this machine").destroys()
	}
	return nothing
}

func hasPrefixArg(args []string, prefix string) bool {
	for _, a := range args {
		if strings.HasPrefix(a, prefix) {
			return true
		}
	}
	return false
}

// verbSpecs makes the specs of verb tables. The tables are package-level
// arrays with nothing but constants, functions and literals in them, which
// the compiler lays out in the binary: specTable, which runs on the first
// classification of every process, allocates a spec per table and nothing
// for the tables themselves (a table built in a function is copied to the
// heap, every slice in it).
func verbSpecs(ts []verbTable) []*Spec {
	specs := make([]Spec, len(ts))
	out := make([]*Spec, len(ts))
	for i := range ts {
		t := &ts[i]
		specs[i] = Spec{Programs: t.programs, Classify: t.classify, Examples: t.examples}
		out[i] = &specs[i]
	}
	return out
}

// registryTables are the verb tables of registry.go: data the compiler lays out in the
// binary, which registrySpecs makes into specs.
var registryTables = [...]verbTable{
	{
		programs: []string{"skopeo"},
		opts:     argv.Spec{Long: []string{"--src", "--dest", "--authfile", "--src-creds", "--dest-creds", "--creds", "--format", "--override-os", "--override-arch", "--retry-times", "--registries.d", "--policy", "--src-cert-dir", "--dest-cert-dir", "--sign-by", "--multi-arch"}},
		verbs:    verbList{{"copy", vWrite}, {"sync", vWrite}, {"delete", vDelete}, {"inspect", vRead}, {"list-tags", vRead}, {"login", vLocal}, {"logout", vLocal}},
		def:      vLocal,
		what:     "a container registry",
		examples: []Example{
			Example{"skopeo copy docker://ghcr.io/o/a:1 docker://r.example.com/a:1", "external"},
			Example{"skopeo delete docker://r.example.com/a:old", "external+destructive"},
			Example{"skopeo inspect docker://ghcr.io/o/a:1", "local+netread"},
			Example{"skopeo --help", "local"},
		},
	},
	{
		programs: []string{"crane", "gcrane"},
		opts:     argv.Spec{Short: "bftp", Long: []string{"--platform", "--base", "--new_layer", "--new_tag", "--tag", "--output", "--format"}},
		verbs: verbList{{"push", vWrite}, {"copy", vWrite}, {"cp", vWrite}, {"tag", vWrite}, {"append", vWrite}, {"mutate", vWrite},
			{"rebase", vWrite}, {"flatten", vWrite}, {"index append", vWrite}, {"index filter", vWrite}, {"delete", vDelete},
			{"digest", vRead}, {"ls", vRead}, {"manifest", vRead}, {"config", vRead}, {"pull", vRead}, {"export", vRead},
			{"catalog", vRead}, {"validate", vRead}, {"blob", vRead}, {"auth", vLocal}},
		def:  vLocal,
		what: "a container registry",
		examples: []Example{
			Example{"crane push image.tar ghcr.io/o/a:1", "external"},
			Example{"crane copy ghcr.io/o/a:1 ghcr.io/o/a:2", "external"},
			Example{"crane delete ghcr.io/o/a@sha256:abc", "external+destructive"},
			Example{"crane digest ghcr.io/o/a:1", "local+netread"},
			Example{"crane version", "local"},
		},
	},
	{
		programs: []string{"oras"},
		opts:     argv.Spec{Short: "uap", Long: []string{"--artifact-type", "--annotation", "--annotation-file", "--username", "--password", "--config", "--export-manifest", "--output", "--platform", "--registry-config", "--concurrency", "--format"}},
		verbs: verbList{{"push", vWrite}, {"attach", vWrite}, {"copy", vWrite}, {"cp", vWrite}, {"tag", vWrite},
			{"manifest push", vWrite}, {"blob push", vWrite}, {"manifest delete", vDelete}, {"blob delete", vDelete},
			{"pull", vRead}, {"discover", vRead}, {"repo", vRead}, {"manifest fetch", vRead}, {"blob fetch", vRead}, {"resolve", vRead},
			{"login", vLocal}, {"logout", vLocal}},
		def:  vLocal,
		what: "an OCI registry",
		examples: []Example{
			Example{"oras push ghcr.io/o/x:1 f.tgz", "external"},
			Example{"oras manifest delete ghcr.io/o/x:1", "external+destructive"},
			Example{"oras pull ghcr.io/o/x:1", "local+netread"},
			Example{"oras version", "local"},
		},
	},
	{
		programs: []string{"regctl"},
		opts:     argv.Spec{Long: []string{"--format", "--platform", "--host", "--user-agent", "--verbosity", "--logopt"}},
		verbs: verbList{{"image copy", vWrite}, {"image cp", vWrite}, {"image mod", vWrite}, {"image import", vWrite},
			{"artifact put", vWrite}, {"index add", vWrite}, {"index create", vWrite}, {"manifest put", vWrite}, {"blob put", vWrite},
			{"tag delete", vDelete}, {"tag rm", vDelete}, {"manifest delete", vDelete}, {"manifest rm", vDelete},
			{"image delete", vDelete}, {"image rm", vDelete}, {"blob delete", vDelete}, {"blob rm", vDelete},
			{"image", vRead}, {"tag", vRead}, {"repo", vRead}, {"manifest", vRead}, {"artifact", vRead}, {"blob", vRead}, {"index", vRead},
			{"registry", vLocal}},
		def:  vLocal,
		what: "a container registry",
		examples: []Example{
			Example{"regctl image copy ghcr.io/o/a:1 ghcr.io/o/b:1", "external"},
			Example{"regctl tag delete ghcr.io/o/a:old", "external+destructive"},
			Example{"regctl tag ls ghcr.io/o/a", "local+netread"},
			Example{"regctl version", "local"},
		},
	},
	{
		programs: []string{"goreleaser"},
		opts:     argv.Spec{Short: "fpk", Long: []string{"--config", "--parallelism", "--timeout", "--skip", "--release-notes", "--release-header", "--release-footer", "--id"}},
		verbs:    verbList{{"", vWrite}, {"release", vWrite}, {"publish", vWrite}, {"announce", vWrite}, {"build", vLocal}, {"check", vLocal}, {"init", vLocal}, {"healthcheck", vLocal}, {"completion", vLocal}, {"jsonschema", vLocal}, {"man", vLocal}, {"continue", vWrite}},
		def:      vLocal,
		dry:      []string{"--snapshot", "--skip-publish", "--skip=publish"},
		what:     "release hosts and registries",
		examples: []Example{
			Example{"goreleaser release --clean", "external"},
			Example{"goreleaser", "external"},
			Example{"goreleaser release --snapshot --clean", "local"},
			Example{"goreleaser check", "local"},
		},
	},
	{
		programs: []string{"vsce", "ovsx"},
		opts:     argv.Spec{Short: "pio", Long: []string{"--pat", "--packagePath", "--target", "--baseContentUrl", "--baseImagesUrl", "--githubBranch", "--gitlabBranch", "--out", "--registryUrl", "--readme-path", "--changelog-path"}},
		verbs:    verbList{{"publish", vWrite}, {"unpublish", vDelete}, {"create-namespace", vWrite}, {"verify-pat", vRead}, {"package", vLocal}, {"ls", vLocal}, {"show", vRead}, {"get", vRead}, {"login", vLocal}, {"logout", vLocal}},
		def:      vLocal,
		what:     "the extension marketplace",
		examples: []Example{
			Example{"vsce publish", "external"},
			Example{"ovsx publish x.vsix -p t", "external"},
			Example{"vsce unpublish pub.ext", "external+destructive"},
			Example{"vsce package", "local"},
		},
	},
	{
		programs: []string{"semantic-release", "release-it", "np", "changeset", "changesets", "lerna", "release-please", "auto", "standard-version"},
		opts:     argv.Spec{Short: "bpr", Long: []string{"--branches", "--plugins", "--repository-url", "--tag-format", "--extends", "--config", "--increment", "--preid", "--scope", "--ignore", "--concurrency", "--since", "--dist-tag", "--registry", "--message", "--otp"}},
		verbs: verbList{{"", vWrite}, {"publish", vWrite}, {"version", vWrite}, {"run", vLocal}, {"exec", vLocal}, {"status", vLocal},
			{"add", vLocal}, {"init", vLocal}, {"pre", vLocal}, {"tag", vWrite}, {"list", vLocal}, {"ls", vLocal}, {"changed", vLocal},
			{"diff", vLocal}, {"bootstrap", vInstall}, {"clean", vLocalDelete}, {"info", vLocal}, {"create", vLocal}, {"import", vLocal},
			{"release-pr", vWrite}, {"github-release", vWrite}, {"shipit", vWrite}, {"latest", vWrite}},
		def:  vWrite,
		dry:  []string{"--dry-run", "-d", "--no-publish", "--snapshot"},
		what: "a package registry and the forge",
		refine: func(inv *shell.Invocation, p argv.Parsed, verb string, e verbEffect) verbEffect {
			switch {
			case inv.Name() == "changeset" || inv.Name() == "changesets":
				// changeset version only edits files; publish publishes.
				if verb == "version" || verb == "" {
					return vLocal
				}
			case inv.Name() == "lerna" && verb == "version" && p.Has("--no-push") && p.Has("--no-git-tag-version"):
				return vLocal
			case inv.Name() == "lerna" && verb == "version" && p.Has("--no-push"):
				return vLocal
			}
			return e
		},
		examples: []Example{
			Example{"semantic-release", "external"},
			Example{"release-it --ci", "external"},
			Example{"lerna publish from-git --yes", "external"},
			Example{"lerna version --yes", "external"},
			Example{"lerna version --no-push --yes", "local"},
			Example{"lerna run build", "local"},
			Example{"changeset publish", "external"},
			Example{"changeset version", "local"},
			Example{"semantic-release --dry-run", "local"},
		},
	},
	{
		programs: []string{"sbt"},
		opts:     argv.Spec{Long: []string{"-J", "-D", "--java-home", "--sbt-dir", "--ivy"}},
		verbs:    verbList{{"", vLocal}},
		def:      vLocal,
		what:     "a package repository",
		refine: func(inv *shell.Invocation, p argv.Parsed, verb string, e verbEffect) verbEffect {
			// sbt takes a list of commands, each possibly "a; b" or
			// "project/task": publish, publishSigned and release publish;
			// publishLocal and publishM2 stay on this machine.
			for _, o := range p.Operands {
				for _, c := range strings.FieldsFunc(o, func(r rune) bool { return r == ';' || r == ' ' }) {
					if i := strings.LastIndexByte(c, '/'); i >= 0 {
						c = c[i+1:]
					}
					switch {
					case c == "publishLocal" || c == "publishM2" || c == "publishLocalSigned":
					case strings.HasPrefix(c, "publish") || c == "release" || c == "sonatypeRelease" || c == "sonatypeBundleRelease" || c == "ciReleaseSonatype":
						return vWrite
					}
				}
			}
			return e
		},
		examples: []Example{
			Example{"sbt publish", "external"},
			Example{"sbt 'clean; publishSigned'", "external"},
			Example{"sbt publishLocal", "local"},
			Example{"sbt test", "local"},
		},
	},
	{
		programs: []string{"rebar3"},
		verbs:    verbList{{"hex publish", vWrite}, {"hex cut", vWrite}, {"hex retire", vWrite}, {"hex owner", vWrite}, {"hex revert", vDelete}, {"get-deps", vInstall}, {"upgrade", vInstall}},
		def:      vLocal,
		what:     "the hex.pm registry",
		examples: []Example{
			Example{"rebar3 hex publish", "external"},
			Example{"rebar3 compile", "local"},
		},
	},
	{
		programs: []string{"mix"},
		verbs:    verbList{{"hex.publish", vWrite}, {"hex.retire", vWrite}, {"hex.owner", vWrite}, {"deps.get", vInstall}, {"deps.update", vInstall}},
		def:      vLocal,
		what:     "the hex.pm registry",
		examples: []Example{
			Example{"mix hex.publish", "external"},
			Example{"mix test", "local"},
		},
	},
	{
		programs: []string{"dart", "flutter"},
		opts:     argv.Spec{Short: "dt", Long: []string{"--device-id", "--target", "--flavor", "--directory"}},
		verbs:    verbList{{"pub publish", vWrite}, {"pub lish", vWrite}, {"pub uploader", vWrite}, {"pub get", vInstall}, {"pub upgrade", vInstall}, {"pub add", vInstall}, {"pub global", vInstall}, {"pub token", vLocal}},
		def:      vLocal,
		dry:      []string{"--dry-run", "-n"},
		what:     "the pub.dev registry",
		examples: []Example{
			Example{"dart pub publish", "external"},
			Example{"flutter pub publish --dry-run", "local"},
			Example{"dart pub get", "shared+netread"},
			Example{"flutter test", "local"},
		},
	},
	{
		programs: []string{"pod"},
		verbs:    verbList{{"trunk push", vWrite}, {"trunk register", vWrite}, {"trunk add-owner", vWrite}, {"trunk delete", vDelete}, {"trunk deprecate", vWrite}, {"repo push", vWrite}, {"install", vInstall}, {"update", vInstall}, {"repo update", vRead}, {"lib lint", vRead}, {"spec lint", vRead}, {"search", vRead}},
		def:      vLocal,
		what:     "the CocoaPods trunk",
		examples: []Example{
			Example{"pod trunk push X.podspec", "external"},
			Example{"pod install", "shared+netread"},
			Example{"pod --version", "local"},
		},
	},
	{
		programs: []string{"conan"},
		opts:     argv.Spec{Short: "rcs", Long: []string{"--remote", "--confirm", "--settings", "--options", "--profile", "--build"}},
		verbs:    verbList{{"upload", vWrite}, {"remove", vLocalDelete}, {"install", vInstall}, {"search", vRead}, {"download", vRead}},
		def:      vLocal,
		what:     "a Conan remote",
		examples: []Example{
			Example{"conan upload lib/1.0 -r remote", "external"},
			Example{"conan profile detect", "local"},
		},
	},
	{
		programs: []string{"buildah"},
		opts:     argv.Spec{Short: "ft", Long: []string{"--file", "--tag", "--format", "--authfile", "--creds", "--build-arg", "--platform", "--layers"}},
		verbs:    verbList{{"push", vWrite}, {"manifest push", vWrite}, {"pull", vRead}, {"from", vRead}, {"rm", vLocalDelete}, {"rmi", vLocalDelete}, {"login", vLocal}},
		def:      vLocal,
		what:     "a container registry",
		examples: []Example{
			Example{"buildah push a:1 docker://ghcr.io/o/a:1", "external"},
			Example{"buildah bud -t a .", "local"},
		},
	},
	{
		programs: []string{"ko"},
		opts:     argv.Spec{Short: "tfB", Long: []string{"--tags", "--platform", "--image-label", "--image-refs", "--filename", "--selector", "--tag-only", "--sbom"}},
		verbs:    verbList{{"build", vWrite}, {"publish", vWrite}, {"resolve", vWrite}, {"apply", vWrite}, {"create", vWrite}, {"run", vWrite}, {"delete", vDelete}, {"login", vLocal}, {"deps", vLocal}},
		def:      vLocal,
		what:     "a container registry and the cluster",
		refine: func(inv *shell.Invocation, p argv.Parsed, verb string, e verbEffect) verbEffect {
			if e == vWrite && (p.Has("--local", "-L", "--push=false") || hasPrefixArg(inv.Args, "--push=false")) {
				return vLocal
			}
			return e
		},
		examples: []Example{
			Example{"ko build ./cmd/app", "external"},
			Example{"ko build --local ./cmd/app", "local"},
		},
	},
	{
		programs: []string{"cosign"},
		opts:     argv.Spec{Short: "ay", Long: []string{"--key", "--certificate", "--output-signature", "--output-certificate", "--predicate", "--type", "--signature", "--certificate-identity", "--certificate-oidc-issuer", "--rekor-url", "--fulcio-url", "--bundle"}},
		verbs: verbList{{"sign", vWrite}, {"sign-blob", vWrite}, {"attest", vWrite}, {"attest-blob", vWrite}, {"attach", vWrite},
			{"upload", vWrite}, {"copy", vWrite}, {"clean", vDelete}, {"verify", vRead}, {"verify-blob", vRead}, {"verify-attestation", vRead},
			{"download", vRead}, {"tree", vRead}, {"triangulate", vRead}, {"generate-key-pair", vLocal}, {"public-key", vLocal}},
		def:  vLocal,
		what: "a registry and the transparency log",
		examples: []Example{
			Example{"cosign sign ghcr.io/o/a@sha256:abc", "external"},
			Example{"cosign verify ghcr.io/o/a:1", "local+netread"},
			Example{"cosign generate-key-pair", "local"},
		},
	},
	{
		programs: []string{"ghr"},
		opts:     argv.Spec{Short: "tucbnrp", Long: []string{"-token", "-username", "-repository", "-commitish", "-name", "-body", "-parallel"}},
		verbs:    verbList{{"", vLocal}},
		def:      vWrite,
		what:     "a GitHub release",
		examples: []Example{
			Example{"ghr v1.0 dist/", "external"},
			Example{"ghr", "local"},
		},
	},
	{
		programs: []string{"snapcraft"},
		verbs:    verbList{{"upload", vWrite}, {"push", vWrite}, {"release", vWrite}, {"register", vWrite}, {"close", vWrite}, {"promote", vWrite}, {"set-default-track", vWrite}, {"upload-metadata", vWrite}, {"revisions", vRead}, {"status", vRead}, {"list-revisions", vRead}},
		def:      vLocal,
		what:     "the Snap Store",
		examples: []Example{
			Example{"snapcraft upload a.snap", "external"},
			Example{"snapcraft pack", "local"},
		},
	},
	{
		programs: []string{"jsr"},
		verbs:    verbList{{"publish", vWrite}, {"add", vInstall}, {"i", vInstall}, {"install", vInstall}, {"remove", vLocal}},
		def:      vLocal,
		dry:      []string{"--dry-run"},
		what:     "the JSR registry",
		examples: []Example{
			Example{"jsr publish", "external"},
			Example{"jsr publish --dry-run", "local"},
		},
	},
	{
		programs: []string{"huggingface-cli", "hf"},
		opts:     argv.Spec{Long: []string{"--repo-type", "--revision", "--token", "--include", "--exclude", "--local-dir", "--commit-message", "--cache-dir"}},
		verbs: verbList{{"upload", vWrite}, {"upload-large-folder", vWrite}, {"repo create", vWrite}, {"repos create", vWrite},
			{"repo delete", vDelete}, {"repos delete", vDelete}, {"delete", vDelete}, {"repo-files", vDelete}, {"download", vRead}, {"scan-cache", vLocal},
			{"whoami", vRead}, {"login", vLocal}, {"logout", vLocal}, {"env", vLocal}},
		def:  vLocal,
		what: "the Hugging Face Hub",
		examples: []Example{
			Example{"huggingface-cli upload org/m ./out", "external"},
			Example{"hf download org/m", "local+netread"},
			Example{"hf env", "local"},
		},
	},
	{
		programs: []string{"kaggle"},
		opts:     argv.Spec{Short: "cfmpdkv", Long: []string{"--competition", "--file", "--message", "--path", "--dataset", "--kernel", "--version-notes"}},
		verbs: verbList{{"competitions submit", vWrite}, {"c submit", vWrite}, {"datasets create", vWrite}, {"d create", vWrite},
			{"datasets version", vWrite}, {"d version", vWrite}, {"kernels push", vWrite}, {"k push", vWrite}, {"models create", vWrite},
			{"models instances create", vWrite}, {"models delete", vDelete}, {"datasets delete", vDelete},
			{"competitions", vRead}, {"c", vRead}, {"datasets", vRead}, {"d", vRead}, {"kernels", vRead}, {"k", vRead}, {"models", vRead}, {"config", vLocal}},
		def:  vLocal,
		what: "Kaggle",
		examples: []Example{
			Example{"kaggle competitions submit -c t -f s.csv -m x", "external"},
			Example{"kaggle datasets download -d o/ds", "local+netread"},
			Example{"kaggle config view", "local"},
		},
	},
	{
		programs: []string{"restic"},
		opts:     argv.Spec{Short: "rp", Long: []string{"--repo", "--password-file", "--repository-file", "--tag", "--host", "--exclude", "--exclude-file", "--files-from", "--keep-last", "--keep-daily", "--keep-weekly", "--keep-monthly", "--target", "--cache-dir"}},
		verbs:    verbList{{"backup", vWrite}, {"copy", vWrite}, {"init", vWrite}, {"tag", vWrite}, {"forget", vDelete}, {"prune", vDelete}, {"key", vWrite}, {"restore", vRead}, {"snapshots", vRead}, {"ls", vRead}, {"check", vRead}, {"stats", vRead}, {"find", vRead}, {"diff", vRead}, {"dump", vRead}, {"mount", vRead}, {"cat", vRead}},
		def:      vLocal,
		dry:      []string{"--dry-run", "-n"},
		what:     "a backup repository",
		refine:   backupRepoLocal("-r", "--repo", "RESTIC_REPOSITORY"),
		examples: []Example{
			Example{"restic -r s3:s3.amazonaws.com/b backup .", "external"},
			Example{"restic -r /mnt/backup backup .", "shared"},
			Example{"restic -r sftp:u@h:/r forget --keep-last 3 --prune", "external+destructive"},
			Example{"restic version", "local"},
		},
	},
	{
		programs: []string{"borg", "borgbackup"},
		opts:     argv.Spec{Short: "e", Long: []string{"--exclude", "--exclude-from", "--compression", "--keep-daily", "--keep-weekly", "--keep-monthly", "--keep-last", "--remote-path", "--rsh", "--encryption"}},
		verbs:    verbList{{"create", vWrite}, {"init", vWrite}, {"rcreate", vWrite}, {"prune", vDelete}, {"delete", vDelete}, {"compact", vDelete}, {"recreate", vDelete}, {"list", vRead}, {"info", vRead}, {"extract", vRead}, {"check", vRead}, {"diff", vRead}, {"export-tar", vRead}, {"mount", vRead}},
		def:      vLocal,
		dry:      []string{"--dry-run", "-n"},
		what:     "a backup repository",
		refine:   borgRepoLocal,
		examples: []Example{
			Example{"borg create ssh://b.example.com/r::a .", "external"},
			Example{"borg list /mnt/backup/repo", "local"},
			Example{"borg prune --keep-daily 7 /mnt/backup/repo", "shared+destructive"},
		},
	},
	{
		programs: []string{"b2"},
		verbs: verbList{{"upload-file", vWrite}, {"upload", vWrite}, {"sync", vWrite}, {"copy-file-by-id", vWrite}, {"file upload", vWrite},
			{"create-bucket", vWrite}, {"update-bucket", vWrite}, {"delete-file-version", vDelete}, {"rm", vDelete}, {"delete-bucket", vDelete},
			{"file delete", vDelete}, {"bucket delete", vDelete}, {"ls", vRead}, {"download-file", vRead}, {"download-file-by-name", vRead}, {"cat", vRead}, {"file download", vRead}, {"authorize-account", vLocal}, {"account", vLocal}},
		def:  vLocal,
		what: "Backblaze B2",
		examples: []Example{
			Example{"b2 upload-file bucket f f", "external"},
			Example{"b2 rm b2://bucket/f", "external+destructive"},
			Example{"b2 ls b2://bucket", "local+netread"},
		},
	},
	{
		programs: []string{"s3cmd"},
		opts:     argv.Spec{Short: "c", Long: []string{"--config", "--access_key", "--secret_key", "--region", "--exclude", "--include", "--acl-grant", "--mime-type", "--storage-class"}},
		verbs: verbList{{"put", vWrite}, {"sync", vWrite}, {"cp", vWrite}, {"mv", vWrite}, {"modify", vWrite}, {"setacl", vWrite},
			{"setpolicy", vWrite}, {"mb", vWrite}, {"signurl", vLocal}, {"del", vDelete}, {"rm", vDelete}, {"rb", vDelete}, {"delpolicy", vDelete},
			{"get", vRead}, {"ls", vRead}, {"la", vRead}, {"info", vRead}, {"du", vRead}},
		def:  vLocal,
		dry:  []string{"--dry-run", "-n"},
		what: "object storage",
		refine: func(inv *shell.Invocation, p argv.Parsed, verb string, e verbEffect) verbEffect {
			// s3cmd sync s3://b/ ./dir downloads.
			if verb == "sync" && len(p.Operands) > 2 && !strings.Contains(p.Operands[len(p.Operands)-1], "://") {
				return vRead
			}
			return e
		},
		examples: []Example{
			Example{"s3cmd put f s3://b/", "external"},
			Example{"s3cmd del s3://b/f", "external+destructive"},
			Example{"s3cmd ls s3://b/", "local+netread"},
		},
	},
	{
		programs: []string{"mc", "mcli"},
		opts:     argv.Spec{Long: []string{"--attr", "--storage-class", "--encrypt", "--older-than", "--newer-than", "--tags", "--config-dir"}},
		verbs: verbList{{"cp", vWrite}, {"mirror", vWrite}, {"mv", vWrite}, {"put", vWrite}, {"pipe", vWrite}, {"mb", vWrite},
			{"retention", vWrite}, {"tag", vWrite}, {"anonymous", vWrite}, {"policy", vWrite}, {"rm", vDelete}, {"rb", vDelete},
			{"ls", vRead}, {"cat", vRead}, {"stat", vRead}, {"find", vRead}, {"du", vRead}, {"get", vRead}, {"head", vRead}, {"tree", vRead},
			{"diff", vRead}, {"alias", vLocal}, {"config", vLocal}},
		def:  vLocal,
		what: "object storage",
		refine: func(inv *shell.Invocation, p argv.Parsed, verb string, e verbEffect) verbEffect {
			// cp/mirror into a local directory downloads.
			if (verb == "cp" || verb == "mirror") && len(p.Operands) > 2 {
				dst := p.Operands[len(p.Operands)-1]
				if strings.HasPrefix(dst, ".") || strings.HasPrefix(dst, "/") || strings.HasPrefix(dst, "~") {
					return vRead
				}
			}
			return e
		},
		examples: []Example{
			Example{"mc cp f myminio/bucket/", "external"},
			Example{"mc cp myminio/bucket/f ./f", "local+netread"},
			Example{"mc rm --recursive --force myminio/bucket", "external+destructive"},
			Example{"mc ls myminio/bucket", "local+netread"},
		},
	},
	{
		programs: []string{"azcopy"},
		opts:     argv.Spec{Long: []string{"--include-pattern", "--exclude-pattern", "--log-level", "--from-to", "--block-size-mb", "--cap-mbps"}},
		verbs:    verbList{{"copy", vWrite}, {"cp", vWrite}, {"sync", vWrite}, {"remove", vDelete}, {"rm", vDelete}, {"make", vWrite}, {"set-properties", vWrite}, {"list", vRead}, {"ls", vRead}, {"login", vLocal}, {"logout", vLocal}, {"jobs", vLocal}, {"env", vLocal}},
		def:      vLocal,
		dry:      []string{"--dry-run"},
		what:     "Azure storage",
		refine: func(inv *shell.Invocation, p argv.Parsed, verb string, e verbEffect) verbEffect {
			if (verb == "copy" || verb == "cp" || verb == "sync") && len(p.Operands) > 2 && !strings.Contains(p.Operands[len(p.Operands)-1], "://") {
				return vRead
			}
			return e
		},
		examples: []Example{
			Example{"azcopy copy f 'https://a.blob.core.windows.net/c'", "external"},
			Example{"azcopy copy 'https://a.blob.core.windows.net/c/f' ./f", "local+netread"},
		},
	},
	{
		programs: []string{"jf", "jfrog"},
		opts:     argv.Spec{Long: []string{"--url", "--user", "--password", "--access-token", "--server-id", "--props", "--target-props", "--build-name", "--build-number", "--module", "--spec", "--exclusions", "--threads"}},
		verbs: verbList{{"rt upload", vWrite}, {"rt u", vWrite}, {"rt copy", vWrite}, {"rt cp", vWrite}, {"rt move", vWrite},
			{"rt mv", vWrite}, {"rt set-props", vWrite}, {"rt sp", vWrite}, {"rt build-publish", vWrite}, {"rt bp", vWrite},
			{"rt build-promote", vWrite}, {"rt bpr", vWrite}, {"rt docker-push", vWrite}, {"rt dp", vWrite}, {"rt npm-publish", vWrite},
			{"rt delete", vDelete}, {"rt del", vDelete}, {"rt delete-props", vDelete}, {"rt build-discard", vDelete}, {"rt bdi", vDelete},
			{"rt download", vRead}, {"rt dl", vRead}, {"rt search", vRead}, {"rt s", vRead}, {"rt ping", vRead},
			{"npm publish", vWrite}, {"docker push", vWrite}, {"mvn", vWrite}, {"gradle", vWrite}, {"upload", vWrite}, {"u", vWrite},
			{"download", vRead}, {"dl", vRead}, {"config", vLocal}, {"c", vLocal}},
		def:  vLocal,
		dry:  []string{"--dry-run", "--dry-run=true"},
		what: "an Artifactory server",
		examples: []Example{
			Example{"jf rt upload 'build/*.zip' repo/", "external"},
			Example{"jfrog rt del repo/old/", "external+destructive"},
			Example{"jf rt dl repo/a.zip", "local+netread"},
			Example{"jf rt upload a.zip repo/ --dry-run", "local"},
			Example{"jf config show", "local"},
		},
	},
	// Tunnels publish a service on this machine to the internet.
	{
		programs: []string{"ngrok"},
		opts:     argv.Spec{Long: []string{"--authtoken", "--config", "--region", "--domain", "--url", "--basic-auth", "--oauth", "--log", "--log-level", "--log-format"}},
		verbs:    verbList{{"http", vWrite}, {"tcp", vWrite}, {"tls", vWrite}, {"start", vWrite}, {"tunnel", vWrite}, {"", vLocal}, {"version", vLocal}, {"config", vLocal}, {"update", vRead}, {"diagnose", vRead}, {"api", vWrite}, {"service", vWrite}},
		def:      vLocal,
		what:     "a public tunnel to this machine",
		examples: []Example{
			Example{"ngrok http 3000", "external"},
			Example{"ngrok version", "local"},
		},
	},
	{
		programs: []string{"cloudflared"},
		opts:     argv.Spec{Long: []string{"--url", "--config", "--origincert", "--hostname", "--name", "--loglevel", "--logfile", "--metrics", "--protocol", "--credentials-file", "--token"}},
		verbs:    verbList{{"tunnel", vWrite}, {"tunnel run", vWrite}, {"tunnel create", vWrite}, {"tunnel route", vWrite}, {"tunnel delete", vDelete}, {"tunnel cleanup", vDelete}, {"tunnel list", vRead}, {"tunnel info", vRead}, {"tunnel token", vRead}, {"access", vRead}, {"service", vWrite}, {"update", vRead}, {"", vLocal}, {"login", vLocal}},
		def:      vLocal,
		what:     "a public tunnel to this machine",
		examples: []Example{
			Example{"cloudflared tunnel run t", "external"},
			Example{"cloudflared tunnel --url http://localhost:8080", "external"},
			Example{"cloudflared tunnel list", "local+netread"},
			Example{"cloudflared --version", "local"},
		},
	},
	{
		programs: []string{"lt", "localtunnel", "bore", "frpc", "zrok", "devtunnel", "chisel", "pinggy", "localhost.run", "expose", "telebit", "sish"},
		opts:     argv.Spec{Short: "pshc", Long: []string{"--port", "--subdomain", "--host", "--local-host", "--to", "--secret", "--config", "--auth", "--allow-anonymous", "--backend-mode"}},
		verbs:    verbList{{"", vWrite}, {"version", vLocal}, {"status", vLocal}, {"list", vRead}, {"show", vRead}, {"login", vLocal}, {"logout", vLocal}, {"enable", vWrite}, {"invite", vWrite}, {"delete", vDelete}, {"release", vDelete}, {"verify", vLocal}},
		def:      vWrite,
		what:     "a public tunnel to this machine",
		refine: func(inv *shell.Invocation, p argv.Parsed, verb string, e verbEffect) verbEffect {
			// chisel client without a reverse (R:) remote only forwards
			// local ports to the server: a read.
			if inv.Name() == "chisel" && verb == "client" && !hasPrefixArg(inv.Args, "R:") {
				return vRead
			}
			return e
		},
		examples: []Example{
			Example{"lt --port 3000", "external"},
			Example{"bore local 8000 --to bore.pub", "external"},
			Example{"zrok share public localhost:8080", "external"},
			Example{"chisel client https://r.example.com 5432:db:5432", "local+netread"},
			Example{"frpc --version", "local"},
		},
	},
	{
		programs: []string{"tailscale"},
		opts:     argv.Spec{Long: []string{"--bg", "--https", "--http", "--tcp", "--tls-terminated-tcp", "--set-path", "--socket", "--authkey", "--hostname", "--advertise-routes", "--exit-node"}},
		verbs:    verbList{{"funnel", vWrite}, {"serve", vWrite}, {"file cp", vWrite}, {"ssh", vWrite}, {"funnel status", vLocal}, {"serve status", vLocal}, {"funnel reset", vLocal}, {"serve reset", vLocal}, {"up", vWrite}, {"login", vWrite}, {"status", vLocal}, {"ip", vLocal}, {"ping", vRead}, {"netcheck", vRead}, {"version", vLocal}, {"down", vLocal}, {"logout", vLocal}, {"file get", vRead}, {"cert", vRead}},
		def:      vLocal,
		what:     "the tailnet or the internet",
		examples: []Example{
			Example{"tailscale funnel 3000", "external"},
			Example{"tailscale serve --bg 8080", "external"},
			Example{"tailscale status", "local"},
		},
	},
	{
		programs: []string{"code", "code-insiders", "codium"},
		verbs:    verbList{{"tunnel", vWrite}, {"tunnel status", vLocal}, {"tunnel kill", vLocal}, {"tunnel user", vLocal}, {"serve-web", vWrite}},
		def:      vLocal,
		what:     "a public tunnel to this machine",
		examples: []Example{
			Example{"code tunnel", "external"},
			Example{"code .", "local"},
			Example{"code --install-extension x.y", "local"},
		},
	},
}

// registrySpecs returns the verb-table specs of registries and release tools (specTable lists
// them).
func registrySpecs() []*Spec { return verbSpecs(registryTables[:]) }

// backupRepoLocal refines a backup tool's write: a repository on this
// machine (a path) is shared state, not a write beyond it.
func backupRepoLocal(short, long, env string) func(*shell.Invocation, argv.Parsed, string, verbEffect) verbEffect {
	return func(inv *shell.Invocation, p argv.Parsed, verb string, e verbEffect) verbEffect {
		repo, ok := p.Value(short, long)
		if !ok {
			repo, ok = inv.Getenv(env)
		}
		if !ok || remoteRepo(repo) {
			return e
		}
		return localRepo(e)
	}
}

// borgRepoLocal: borg names its repository as an operand (REPO::ARCHIVE)
// or BORG_REPO.
func borgRepoLocal(inv *shell.Invocation, p argv.Parsed, verb string, e verbEffect) verbEffect {
	repo, ok := inv.Getenv("BORG_REPO")
	for _, o := range p.Operands[min(1, len(p.Operands)):] {
		if strings.Contains(o, "::") || strings.HasPrefix(o, "/") || strings.Contains(o, "://") || strings.Contains(o, "@") {
			repo, ok = o, true
			break
		}
	}
	if !ok || remoteRepo(repo) || strings.Contains(repo, "@") {
		return e
	}
	return localRepo(e)
}

func localRepo(e verbEffect) verbEffect {
	switch e {
	case vWrite:
		return vShared
	case vDelete:
		return vSharedDelete
	case vRead:
		return vLocal
	}
	return e
}

// remoteRepo reports whether a repository address names another machine:
// a scheme (s3:, sftp:, ssh://) rather than a path.
func remoteRepo(r string) bool {
	if strings.HasPrefix(r, "/") || strings.HasPrefix(r, ".") || strings.HasPrefix(r, "~") {
		return false
	}
	i := strings.IndexByte(r, ':')
	return i > 1
}
