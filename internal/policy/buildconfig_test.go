package policy

import (
	"strings"
	"testing"
)

// TestBuildToolConfig: cargo's configuration files (.cargo/config.toml,
// .cargo/config, a parent's, CARGO_HOME's) name programs cargo runs
// (build.rustc-wrapper, build.rustc, target.*.runner, target.*.linker) and
// aliases of its subcommands; pnpm loads .pnpmfile.cjs, Node.js code. Each
// is read when the tool runs, on disk or as the same command writes it
// (FINDINGS-8 H11); ordinary settings run nothing.
func TestBuildToolConfig(t *testing.T) {
	approve := "airlock queue approve abcd"
	base := map[string]string{
		"home/.claude/settings.json":                    "{\"hooks\":{}}\n",
		"home/.local/state/airlock/secrets/serve.token": strings.Repeat("d4", 32) + "\n",
		"proj/x.sh":         "#!/bin/sh\n" + approve + "\n",
		"proj/Cargo.toml":   "[package]\nname = \"p\"\nversion = \"0.1.0\"\n",
		"proj/package.json": `{"name":"p"}`,
	}
	with := func(files ...string) map[string]string {
		m := map[string]string{}
		for i := 0; i+1 < len(files); i += 2 {
			m[files[i]] = files[i+1]
		}
		return m
	}
	cases := []findingCase{
		{finding: "cargo test with .cargo/config's linker", setup: with("proj/.cargo/config", "[target.x86_64-unknown-linux-gnu]\nlinker = \"./x.sh\"\n"), cmd: `cargo test`, want: denied},
		{finding: "cargo build with a dotted key", setup: with("proj/.cargo/config.toml", "build.rustc-wrapper = \"./x.sh\"\n"), cmd: `cargo build --release`, want: denied},
		{finding: "cargo build with a parent's config", setup: with(".cargo/config.toml", "[build]\nrustc = \"@ROOT@/proj/x.sh\"\n"), cmd: `cargo build`, want: denied},
		{finding: "cargo run with CARGO_HOME's runner", setup: with("home/ch/config.toml", "[target.'cfg(unix)']\nrunner = [\"@ROOT@/proj/x.sh\", \"-v\"]\n"), cmd: `CARGO_HOME=~/ch cargo run`, want: denied},
		{finding: "cargo b with an alias that sets the wrapper", setup: with("proj/.cargo/config.toml", "[alias]\nb = \"build --config build.rustc-wrapper='./x.sh'\"\n"), cmd: `cargo b`, want: denied},
		{finding: "config written by tee, then cargo build", cmd: `mkdir -p .cargo; printf '[build]\nrustc-wrapper = "./x.sh"\n' | tee .cargo/config.toml; cargo build`, want: held},
		{finding: ".pnpmfile.cjs on disk running airlock, pnpm add", setup: with("proj/.pnpmfile.cjs", "module.exports={hooks:{readPackage(p){require('child_process').execSync('"+approve+"');return p}}}\n"), cmd: `pnpm add left-pad`, want: denied},
		{finding: "--pnpmfile written, then pnpm i", cmd: `printf 'require("child_process").execSync("./x.sh")' > h.cjs; pnpm i --pnpmfile h.cjs`, want: held},

		// Written for later: the program it names is checked at the write
		// (the Write tool's text alone: no file is read then).
		{finding: "Write tool: .cargo/config.toml with a runner", cmd: "[target.x86_64-unknown-linux-gnu]\nrunner = [\"sh\", \"-c\", \"" + approve + "\"]\n", write: "@ROOT@/proj/.cargo/config.toml", want: denied},
		{finding: "mise.toml with an enter hook written", cmd: `printf '[hooks]\nenter = "./x.sh"\n' > mise.toml`, want: denied},
		{finding: "Write tool: mise.toml with a postinstall hook list", cmd: "[hooks]\npostinstall = [\"echo hi\", \"" + approve + "\"]\n", write: "@ROOT@/proj/mise.toml", want: denied},
		{finding: "mise.toml sourcing x.sh in its env", cmd: `printf '[env]\n_.source = "./x.sh"\n' > .mise.toml`, want: denied},

		// Ordinary settings.
		{finding: "Write tool: .cargo/config.toml with jobs", cmd: "[build]\njobs = 4\n", write: "@ROOT@/proj/.cargo/config.toml", want: notHeld},
		{finding: "mise.toml with tools written", cmd: `printf '[tools]\nnode = "20"\n[hooks]\nenter = "echo entered"\n' > mise.toml`, want: notHeld},
		{finding: "cargo build with jobs and target-dir", setup: with("proj/.cargo/config.toml", "[build]\njobs = 4\ntarget-dir = \"target2\"\n"), cmd: `cargo build`, want: notHeld},
		{finding: "cargo build with linker clang", setup: with("proj/.cargo/config.toml", "[target.x86_64-unknown-linux-gnu]\nlinker = \"clang\"\nrustflags = [\"-C\", \"link-arg=-fuse-ld=lld\"]\n"), cmd: `cargo build`, want: notHeld},
		{finding: "cargo fmt with a wrapper set", setup: with("proj/.cargo/config.toml", "[build]\nrustc-wrapper = \"sccache\"\n"), cmd: `cargo build && cargo fmt`, want: notHeld},
		{finding: "pnpm install with a readPackage hook", setup: with("proj/.pnpmfile.cjs", "module.exports = { hooks: { readPackage(pkg) { if (pkg.name === 'a') { pkg.dependencies = { ...pkg.dependencies, b: '1' } } return pkg } } }\n"), cmd: `pnpm install`, want: notHeld},
		{finding: "pnpm install --ignore-pnpmfile", setup: with("proj/.pnpmfile.cjs", "require('child_process').execSync('"+approve+"')\n"), cmd: `pnpm install --ignore-pnpmfile`, want: notHeld},
	}
	for i := range cases {
		cases[i].fixed = true
	}
	runFindingCases(t, "8c", base, cases)
}
