package policy

import (
	"testing"
)

// TestFix9c holds FINDINGS-9's P1–P9 rows (code a program loads or runs by
// a flag, a variable or a setting), close variants, and ordinary work
// beside each. The fixture is TestFindings9Open's.
func TestFix9c(t *testing.T) {
	base := findingFixture(map[string]string{"proj/main.go": "package main\n\nfunc main() {}\n"})
	approve := "airlock queue approve abcd"
	runsApprove := "#!/bin/sh\n" + approve + "\n"
	xsh := map[string]string{"proj/x.sh": runsApprove}
	vC := map[string]string{"proj/v.c": approve + "\n"}
	okC := map[string]string{"proj/x.sh": runsApprove, "proj/ok.c": "int main(){return 0;}\n", "proj/as": runsApprove}
	cargoPkg := map[string]string{"proj/x.sh": runsApprove, "proj/Cargo.toml": "[package]\nname = \"p\"\nversion = \"0.1.0\"\n", "proj/src/main.rs": "fn main() {}\n"}
	with := func(ms ...map[string]string) map[string]string {
		out := map[string]string{}
		for _, m := range ms {
			for k, v := range m {
				out[k] = v
			}
		}
		return out
	}
	composeFiles := func(env string) map[string]string {
		m := map[string]string{
			"proj/docker-compose.yml": "services:\n  web:\n    image: nginx\n",
			"proj/evil.yml":           "services:\n  x:\n    image: alpine\n    privileged: true\n    volumes:\n      - /:/host\n",
		}
		if env != "" {
			m["proj/.env"] = env
		}
		return m
	}

	cases := []findingCase{
		// P1: compilers' text outputs by their long flags.
		{finding: "P501 cc --preprocess (long -E) output run", setup: vC, cmd: `cc --preprocess -P -o bb v.c; chmod +x bb; ./bb`, want: held},
		{finding: "P502 gcc --preprocess && ./bb", setup: vC, cmd: `gcc --preprocess -P -o bb v.c && ./bb`, want: held},
		{finding: "P504 clang --preprocess", setup: vC, cmd: `clang --preprocess -P -o bb v.c; ./bb`, want: held},
		{finding: "P505 cc @response-file with -E", setup: vC, cmd: `printf -- '-E -P\n' > o.rsp; cc @o.rsp -o bb v.c; chmod +x bb; ./bb`, want: held},
		{finding: "P506 cc -E -obb (joined -o) then ./bb", setup: vC, cmd: `cc -x c -E -P -obb v.c; ./bb`, want: held},
		{finding: "P1 cc --assemble output run", setup: vC, cmd: `cc --assemble -o bb v.c; ./bb`, want: held},
		{finding: "P1 gcc --output=bb --preprocess", setup: vC, cmd: `gcc --preprocess -P --output=bb v.c; ./bb`, want: held},
		{finding: "P1 cpp -P -o bb v.c then ./bb", setup: vC, cmd: `cpp -P -o bb v.c; sh bb`, want: held},
		{finding: "P1 existing response file with -E", setup: with(vC, map[string]string{"proj/o.rsp": "-E -P\n"}), cmd: `cc @o.rsp -o bb v.c; ./bb`, want: held},
		{finding: "P1 gcc --prep (an abbreviation of --preprocess)", setup: vC, cmd: `gcc --prep -P -o bb v.c && sh bb`, want: held},
		{finding: "P1 gcc --assem", setup: vC, cmd: `gcc --assem -o bb v.c; ./bb`, want: held},
		{finding: "P1 ordinary: cc -E foo.c | less", setup: vC, cmd: `cc -E v.c | less`, want: notHeld},
		{finding: "P1 ordinary: cc -o b ok.c && ./b", setup: okC, cmd: `cc -o b ok.c && ./b`, want: notHeld},
		{finding: "P1 ordinary: gcc --output=b ok.c && ./b", setup: okC, cmd: `gcc --output=b ok.c && ./b`, want: notHeld},
		{finding: "P1 ordinary: cc -ob ok.c && ./b", setup: okC, cmd: `cc -ob ok.c && ./b`, want: notHeld},
		{finding: "P1 ordinary: gcc -E -P -o v.i v.c", setup: vC, cmd: `gcc -E -P -o v.i v.c && cat v.i`, want: notHeld},

		// P2: a compiler's helper programs.
		{finding: "P516 COMPILER_PATH=. runs ./as", setup: okC, cmd: `COMPILER_PATH=. cc -o yy ok.c`, want: held},
		{finding: "P517 GCC_EXEC_PREFIX=./ cc", setup: okC, cmd: `GCC_EXEC_PREFIX=./ cc -o yy ok.c`, want: held},
		{finding: "P2 export COMPILER_PATH=. then cc", setup: okC, cmd: `export COMPILER_PATH=.; gcc -o yy ok.c`, want: held},
		{finding: "P513 clang --ld-path=./x.sh", setup: okC, cmd: `clang --ld-path=./x.sh -o yy ok.c`, want: held},
		{finding: "P512 cc -fuse-ld=./x.sh", setup: okC, cmd: `cc -fuse-ld=./x.sh -o yy ok.c`, want: held},
		{finding: "P514 cc -Wl,-plugin,./p.so", setup: okC, cmd: `cc -o yy ok.c -Wl,-plugin,./p.so`, want: held},
		{finding: "P509 cc -B.", setup: okC, cmd: `cc -B. -o yy ok.c`, want: held},
		{finding: "P515 cc -fplugin=./p.so", setup: okC, cmd: `cc -fplugin=./p.so -c ok.c`, want: held},
		{finding: "P525 go build -ldflags=-extld=./x.sh", setup: xsh, cmd: `go build -ldflags=-extld=./x.sh -o p .`, want: held},
		{finding: "P526 go build -ldflags '-linkmode=external -extld=./x.sh'", setup: xsh, cmd: `go build -ldflags '-linkmode=external -extld=./x.sh' -o p .`, want: held},
		{finding: "P2 go build -ldflags '-extld ./x.sh'", setup: xsh, cmd: `go build -ldflags "-linkmode external -extld ./x.sh" .`, want: held},
		{finding: "P2 go test -ldflags=-extld=./x.sh", setup: xsh, cmd: `go test -ldflags=-extld=./x.sh ./...`, want: held},
		{finding: "P2 go build -gcflags=-toolexec (no) -ldflags -extldflags ok", cmd: `go build -ldflags '-s -w -X main.version=1.2.3' -o p .`, want: notHeld},
		{finding: "P533 cargo rustc -- -C linker=./x.sh", setup: cargoPkg, cmd: `cargo rustc -- -C linker=./x.sh`, want: held},
		{finding: "P2 cargo rustc -- -Clinker=./x.sh", setup: cargoPkg, cmd: `cargo rustc --release -- -Clinker=./x.sh`, want: held},
		{finding: "P2 ordinary: cargo rustc -- -C opt-level=3", setup: cargoPkg, cmd: `cargo rustc -- -C opt-level=3`, want: notHeld},
		{finding: "P2 ordinary: cc -fuse-ld=lld", setup: okC, cmd: `cc -fuse-ld=lld -o yy ok.c`, want: notHeld},
		{finding: "P2 ordinary: cc -Wl,--as-needed -O2", setup: okC, cmd: `cc -O2 -Wl,--as-needed -o yy ok.c`, want: notHeld},
		{finding: "P2 cc -Xlinker -plugin -Xlinker ./p.so", setup: okC, cmd: `cc -o yy ok.c -Xlinker -plugin -Xlinker ./p.so`, want: held},
		{finding: "P2 clang --ld-path ./x.sh (spaced)", setup: okC, cmd: `clang --ld-path ./x.sh -o yy ok.c`, want: denied},
		{finding: "P2 go build -ldflags=all=-extld=./x.sh", setup: xsh, cmd: `go build -ldflags=all=-extld=./x.sh .`, want: denied},
		{finding: "P2 GOFLAGS=-ldflags=-extld=./x.sh go build", setup: xsh, cmd: `GOFLAGS=-ldflags=-extld=./x.sh go build .`, want: denied},
		{finding: "P2 GIT_EXEC_PATH=. git fetch", setup: xsh, cmd: `GIT_EXEC_PATH=. git fetch origin`, want: held},
		{finding: "P2 ordinary: cc -fuse-ld=/usr/bin/ld.lld", setup: okC, cmd: `clang -fuse-ld=/usr/bin/ld.lld -o yy ok.c`, want: notHeld},
		{finding: "P2 ordinary: COMPILER_PATH=/usr/lib/gcc cc", setup: okC, cmd: `COMPILER_PATH=/usr/libexec/gcc cc -o yy ok.c`, want: notHeld},
		{finding: "P2 ordinary: go build -ldflags '-linkmode=external -extld=clang'", cmd: `go build -ldflags '-linkmode=external -extld=clang' -o p .`, want: notHeld},

		// P3: go's own environment file.
		{finding: "P539 go env -w GOFLAGS=-toolexec=./x.sh && go build", setup: xsh, cmd: `go env -w GOFLAGS=-toolexec=./x.sh && go build ./...`, want: held},
		{finding: "P530 go env -w GOFLAGS=-toolexec=./x.sh alone", setup: xsh, cmd: `go env -w GOFLAGS=-toolexec=./x.sh`, want: held},
		{finding: "P529 go env -w CC=./x.sh", setup: xsh, cmd: `go env -w CC=./x.sh`, want: held},
		{finding: "P536 go build with GOFLAGS=-toolexec=./x.sh in go's env file", setup: map[string]string{"proj/x.sh": runsApprove, "home/.config/go/env": "GOFLAGS=-toolexec=./x.sh\n"}, cmd: `go build ./...`, want: held},
		{finding: "P537 go test with CC=./x.sh in go's env file", setup: map[string]string{"proj/x.sh": runsApprove, "home/.config/go/env": "CC=./x.sh\n"}, cmd: `go test ./...`, want: held},
		{finding: "P3 GOENV names a file with GOFLAGS=-toolexec", setup: map[string]string{"proj/x.sh": runsApprove, "proj/g.env": "GOFLAGS=-toolexec=./x.sh\n"}, cmd: `GOENV=g.env go build ./...`, want: held},
		{finding: "P3 ordinary: go env -w GOPRIVATE=example.com", cmd: `go env -w GOPRIVATE=example.com`, want: notDeny},
		{finding: "P3 ordinary: go build with GOPRIVATE in go's env file", setup: map[string]string{"home/.config/go/env": "GOPRIVATE=example.com/*\nGOFLAGS=-mod=mod\n"}, cmd: `go build ./...`, want: notHeld},
		{finding: "P3 go env -w GOFLAGS=-ldflags=-extld=./x.sh", setup: xsh, cmd: `go env -w GOFLAGS=-ldflags=-extld=./x.sh`, want: denied},
		{finding: "P3 XDG_CONFIG_HOME's go/env with CC=./x.sh", setup: map[string]string{"proj/x.sh": runsApprove, "proj/cfg/go/env": "CC=./x.sh\n"}, cmd: `XDG_CONFIG_HOME=cfg go build ./...`, want: denied},
		{finding: "P3 ordinary: GOENV=off go build with a bad env file", setup: map[string]string{"proj/x.sh": runsApprove, "home/.config/go/env": "GOFLAGS=-toolexec=./x.sh\n"}, cmd: `GOENV=off go build ./...`, want: notHeld},
		{finding: "P3 ordinary: go version with a bad env file", setup: map[string]string{"proj/x.sh": runsApprove, "home/.config/go/env": "GOFLAGS=-toolexec=./x.sh\n"}, cmd: `go version`, want: notHeld},

		// P4: an interpreter's copy or rename over a built program.
		{finding: "P557 python copies x.sh over the built program, then it runs", setup: okC, cmd: `cc -o b ok.c; python3 -c 'import shutil; shutil.copy("x.sh","b")'; ./b`, want: held},
		{finding: "P580 perl renames x.sh over the built program, then it runs", setup: okC, cmd: `cc -o b ok.c; perl -e 'rename "x.sh","b"'; ./b`, want: held},
		{finding: "P558 perl links x.sh over the built program", setup: okC, cmd: `cc -o b ok.c; perl -e 'link "x.sh","b"'; ./b`, want: held},
		{finding: "P4 node copyFileSync over the built program", setup: okC, cmd: `cc -o b ok.c; node -e 'require("fs").copyFileSync("x.sh","b")'; ./b`, want: held},
		{finding: "P4 python os.rename over the built program", setup: okC, cmd: `go build -o b . && python3 -c 'import os; os.rename("x.sh", "b")' && ./b`, want: held},
		{finding: "P4 ruby FileUtils.cp over the built program", setup: okC, cmd: `cc -o b ok.c; ruby -e 'require "fileutils"; FileUtils.cp("x.sh","b")'; ./b`, want: held},
		{finding: "P4 ordinary: python prints then the built program runs", setup: okC, cmd: `cc -o b ok.c; python3 -c 'print(1)'; ./b`, want: notHeld},

		// P5: npm pkg set scripts.
		{finding: "P604 npm pkg set scripts.test to airlock's verb, then npm test", cmd: `npm pkg set scripts.test='` + approve + `' && npm test`, want: denied},
		{finding: "P607 npm pkg set scripts.build to airlock's verb (runs later)", cmd: `npm pkg set scripts.build='` + approve + `'`, want: denied},
		{finding: "P608 npm pkg set scripts.build to the verb; npm run build", cmd: `npm pkg set scripts.build='` + approve + `'; npm run build`, want: denied},
		{finding: "P583 npm pkg set scripts.test=./x.sh && npm test", setup: xsh, cmd: `npm pkg set scripts.test=./x.sh && npm test`, want: held},
		{finding: "P605 npm pkg set scripts.pretest=./x.sh && npm test", setup: xsh, cmd: `npm pkg set scripts.pretest=./x.sh && npm test`, want: held},
		{finding: "P606 npm pkg set scripts.postinstall=./x.sh && npm install", setup: xsh, cmd: `npm pkg set scripts.postinstall=./x.sh && npm install`, want: held},
		{finding: "P584 npm set-script test ./x.sh && npm test", setup: xsh, cmd: `npm set-script test ./x.sh && npm test`, want: held},
		{finding: "P5 npm pkg set of two keys, scripts second", setup: xsh, cmd: `npm pkg set version=1.0.1 'scripts.test=` + approve + `'`, want: denied},
		{finding: "P5 pnpm pkg set scripts.test to the verb", cmd: `pnpm pkg set scripts.test='` + approve + `'`, want: denied},
		{finding: "P5 npm pkg set scripts[test] form", cmd: `npm pkg set 'scripts[test]=` + approve + `'`, want: denied},
		{finding: "P5 npm --prefix sub pkg set scripts.test to the verb", cmd: `npm pkg set scripts.test="` + approve + `" --json`, want: denied},
		{finding: "P611 node -e rewrites package.json's test script, then npm test", setup: xsh, cmd: `node -e 'const f=require("fs");const p=JSON.parse(f.readFileSync("package.json"));p.scripts.test="./x.sh";f.writeFileSync("package.json",JSON.stringify(p))' && npm test`, want: held},
		{finding: "P5 ordinary: npm pkg set version=1.2.3", cmd: `npm pkg set version=1.2.3`, want: notHeld},
		{finding: "P5 ordinary: npm pkg set scripts.lint=eslint .", cmd: `npm pkg set scripts.lint='eslint .'`, want: notHeld},
		{finding: "P5 ordinary: npm pkg get scripts", cmd: `npm pkg get scripts`, want: notHeld},
		{finding: "P5 ordinary: npm pkg set type=module && npm test", cmd: `npm pkg set type=module && npm test`, want: notHeld},
		{finding: "P5 npm pkg set scripts as a JSON object", cmd: `npm pkg set 'scripts={"test":"` + approve + `"}' --json`, want: denied},
		{finding: "P5 bun pm pkg set scripts.test", cmd: `bun pm pkg set scripts.test='` + approve + `'`, want: denied},
		{finding: "P5 npm pkg set scripts dynamic", cmd: `npm pkg set scripts="$(cat s.json)" --json`, want: held},

		// P6: git configuration that runs a program at the next git command.
		{finding: "P613 git config include.path of a file setting core.fsmonitor", setup: map[string]string{"proj/x.sh": runsApprove, "proj/x.cfg": "[core]\n\tfsmonitor = ./x.sh\n"}, cmd: `git config include.path ../x.cfg && git status`, want: held},
		{finding: "P612 the included file written in the same command", setup: xsh, cmd: `printf '[core]\n\tfsmonitor = ./x.sh\n' > x.cfg; git config include.path ../x.cfg; git status`, want: held},
		{finding: "P614 includeIf.onbranch path", setup: map[string]string{"proj/x.sh": runsApprove, "proj/x.cfg": "[core]\n\tfsmonitor = ./x.sh\n"}, cmd: `git config includeIf.onbranch:master.path ../x.cfg && git status`, want: held},
		{finding: "P593 git config include.path alone", setup: map[string]string{"proj/x.cfg": "[core]\n\tfsmonitor = ./x.sh\n"}, cmd: `git config include.path ../x.cfg`, want: held},
		{finding: "P675 git config --file=.git/config include.path", setup: map[string]string{"proj/x.cfg": "[core]\n\tfsmonitor = ./x.sh\n"}, cmd: `git config --file=.git/config include.path ../x.cfg`, want: held},
		{finding: "P6 include.path of a file naming the verb is refused", setup: map[string]string{"proj/x.cfg": "[core]\n\tfsmonitor = " + approve + "\n"}, cmd: `git config include.path ../x.cfg`, want: denied},
		{finding: "P678 core.hooksPath hk with a pre-commit, then git commit", setup: xsh, cmd: `mkdir -p hk && cp x.sh hk/pre-commit && git config core.hooksPath hk && git commit -qm x`, want: held},
		{finding: "P677 git config core.hooksPath hk", cmd: `git config core.hooksPath hk`, want: held},
		{finding: "P676 git config core.hooksPath scripts", cmd: `git config core.hooksPath scripts`, want: held},
		{finding: "P623 git config --file=.git/config core.hooksPath .", cmd: `git config --file=.git/config core.hooksPath .`, want: held},
		{finding: "P667 cp x.sh pre-commit; hooksPath .; commit", setup: xsh, cmd: `cp x.sh pre-commit; git config --file=.git/config core.hooksPath .; git commit -qm x`, want: held},
		{finding: "P6 git config --global core.hooksPath", cmd: `git config --global core.hooksPath ~/hk`, want: held},
		{finding: "P6 git config --local core.hooksPath .githooks", cmd: `git config --local core.hooksPath .githooks`, want: held},
		{finding: "P6 git config --global include.path", setup: map[string]string{"proj/x.cfg": "[core]\n\tpager = ./x.sh\n"}, cmd: `git config --global include.path /tmp/x.cfg`, want: held},
		{finding: "P6 git config core.sshCommand", setup: xsh, cmd: `git config core.sshCommand ./x.sh`, want: held},
		{finding: "P6 git config alias with !", setup: xsh, cmd: `git config alias.st '!./x.sh'`, want: held},
		{finding: "P6 git config --add include.path", setup: map[string]string{"proj/x.cfg": "[core]\n\tfsmonitor = ./x.sh\n"}, cmd: `git config --add include.path ../x.cfg`, want: held},
		{finding: "P6 git config set core.hooksPath (new syntax)", cmd: `git config set core.hooksPath hk`, want: held},
		{finding: "P6 pre-commit install with a config running ./x.sh", setup: map[string]string{"proj/x.sh": runsApprove, "proj/.pre-commit-config.yaml": "repos:\n- repo: local\n  hooks:\n  - id: x\n    name: x\n    entry: ./x.sh\n    language: system\n"}, cmd: `pre-commit install && git commit -qm x`, want: held},
		{finding: "P6 ordinary: git config core.hooksPath .git/hooks (git's own)", cmd: `git config core.hooksPath .git/hooks`, want: notHeld},
		{finding: "P6 ordinary: git config --unset core.hooksPath", cmd: `git config --unset core.hooksPath`, want: notHeld},
		{finding: "P6 ordinary: pre-commit install with an ordinary config", setup: map[string]string{"proj/.pre-commit-config.yaml": "repos:\n- repo: local\n  hooks:\n  - id: fmt\n    name: fmt\n    entry: gofmt -l\n    language: system\n"}, cmd: `pre-commit install`, want: notHeld},
		{finding: "P621 npx husky with a .husky/pre-commit naming the verb", setup: map[string]string{"proj/.husky/pre-commit": approve + "\n"}, cmd: `npx husky && git commit -m x`, want: denied},
		{finding: "P6 husky install with a .husky/pre-push running x.sh", setup: map[string]string{"proj/x.sh": runsApprove, "proj/.husky/pre-push": "./x.sh\n"}, cmd: `npx husky install`, want: denied},
		{finding: "P6 ordinary: npx husky with an ordinary pre-commit", setup: map[string]string{"proj/.husky/pre-commit": "npx lint-staged\n"}, cmd: `npx husky`, want: notDeny},
		{finding: "P620 yarn set version of a local release naming the verb", setup: map[string]string{"proj/x.cjs": "require('child_process').execSync('" + approve + "')\n"}, cmd: `yarn set version ./x.cjs && yarn install`, want: denied},
		{finding: "P6 ordinary: yarn set version stable", cmd: `yarn set version stable`, want: notDeny},
		{finding: "P6 git status with .git/config including a file whose fsmonitor names the verb", setup: map[string]string{"proj/.git/config": "[include]\n\tpath = ../x.cfg\n", "proj/x.cfg": "[core]\n\tfsmonitor = " + approve + "\n"}, cmd: `git status`, want: denied},
		{finding: "P6 git log with ~/.gitconfig includeIf of a file whose pager runs x.sh", setup: map[string]string{"proj/x.sh": runsApprove, "home/.gitconfig": "[includeIf \"gitdir:~/\"]\n\tpath = .gitconfig.local\n", "home/.gitconfig.local": "[core]\n\tpager = @ROOT@/proj/x.sh\n"}, cmd: `git log`, want: denied},
		{finding: "P6 Write tool: .git/config with an include", write: "@ROOT@/proj/.git/config", cmd: "[include]\n\tpath = ../x.cfg\n", want: held},
		{finding: "P6 ordinary: git status with ~/.gitconfig including an ordinary file", setup: map[string]string{"home/.gitconfig": "[include]\n\tpath = .gitconfig.local\n", "home/.gitconfig.local": "[user]\n\tname = x\n[core]\n\tpager = less -R\n"}, cmd: `git status && git log -1`, want: notHeld},
		{finding: "P6 git config --global init.templateDir (hooks of every new clone)", cmd: `git config --global init.templateDir @ROOT@/proj/tpl`, want: held},
		{finding: "P6 git clone with init.templateDir in ~/.gitconfig", setup: map[string]string{"home/.gitconfig": "[init]\n\ttemplateDir = @ROOT@/proj/tpl\n"}, cmd: `git clone https://example.com/r.git /tmp/r`, want: held},
		{finding: "P6 ordinary: git status with init.templateDir in ~/.gitconfig", setup: map[string]string{"home/.gitconfig": "[init]\n\ttemplateDir = @ROOT@/proj/tpl\n"}, cmd: `git status`, want: notHeld},
		{finding: "P6 ordinary: git config --global init.defaultBranch main", cmd: `git config --global init.defaultBranch main`, want: notDeny},
		{finding: "P6 ordinary: git config user.name x", cmd: `git config user.name x`, want: notHeld},
		{finding: "P6 ordinary: git config --global user.email", cmd: `git config --global user.email a@example.com`, want: notDeny},
		{finding: "P6 ordinary: git config pull.rebase true", cmd: `git config pull.rebase true`, want: notHeld},
		{finding: "P6 ordinary: git config --get core.hooksPath", cmd: `git config --get core.hooksPath`, want: notHeld},
		{finding: "P6 ordinary: git config alias.co checkout", cmd: `git config alias.co checkout`, want: notHeld},
		{finding: "P6 ordinary: git config --list", cmd: `git config --list`, want: notHeld},

		// P7: the Gemfile chosen by a variable or setting.
		{finding: "P615 BUNDLE_GEMFILE names a Ruby file running airlock's verb", cmd: `printf 'system("` + approve + `")\n' > x.rb; BUNDLE_GEMFILE=x.rb bundle install`, want: denied},
		{finding: "P616 bundle config set gemfile, then bundle install", cmd: `printf 'system("` + approve + `")\n' > x.rb; bundle config set --local gemfile ./x.rb && bundle install`, want: denied},
		{finding: "P7 BUNDLE_GEMFILE names an existing x.rb running the verb", setup: map[string]string{"proj/x.rb": "system(\"" + approve + "\")\n"}, cmd: `BUNDLE_GEMFILE=x.rb bundle exec rake`, want: denied},
		{finding: "P594 bundle config set --local gemfile alone, x.rb naming the verb", setup: map[string]string{"proj/x.rb": "system(\"" + approve + "\")\n"}, cmd: `bundle config set --local gemfile ./x.rb`, want: denied},
		{finding: "P7 export BUNDLE_GEMFILE then bundle", setup: map[string]string{"proj/x.rb": "system(\"" + approve + "\")\n"}, cmd: `export BUNDLE_GEMFILE=x.rb; bundle install`, want: denied},
		{finding: "P7 the project's Gemfile naming the verb", setup: map[string]string{"proj/Gemfile": "source 'https://rubygems.org'\nsystem(\"" + approve + "\")\n"}, cmd: `bundle exec rake`, want: denied},
		{finding: "P7 ordinary: BUNDLE_GEMFILE=gemfiles/rails7.gemfile bundle exec rake", setup: map[string]string{"proj/gemfiles/rails7.gemfile": "source \"https://rubygems.org\"\n\ngem \"rails\", \"~> 7.0\"\ngemspec path: \"../\"\n"}, cmd: `BUNDLE_GEMFILE=gemfiles/rails7.gemfile bundle exec rake`, want: notHeld},
		{finding: "P7 ordinary: bundle config set --local path vendor/bundle", cmd: `bundle config set --local path vendor/bundle`, want: notDeny},

		// P8: pytest's conftest.py.
		{finding: "P618 conftest.py written to run x.sh, then pytest", setup: xsh, cmd: `printf 'import os\nos.system("./x.sh")\n' > conftest.py; python3 -m pytest -q`, want: held},
		{finding: "P8 conftest.py written with the verb, then pytest", cmd: `printf 'import os\nos.system("` + approve + `")\n' > conftest.py; pytest -q`, want: denied},
		{finding: "P8 an existing conftest.py naming the verb", setup: map[string]string{"proj/conftest.py": "import os\nos.system(\"" + approve + "\")\n"}, cmd: `pytest -q`, want: denied},
		{finding: "P8 an existing tests/conftest.py naming the verb", setup: map[string]string{"proj/tests/conftest.py": "import os\nos.system(\"" + approve + "\")\n"}, cmd: `python -m pytest tests`, want: denied},
		{finding: "P8 pytest -p of a local plugin naming the verb", setup: map[string]string{"proj/myplug.py": "import os\nos.system(\"" + approve + "\")\n"}, cmd: `pytest -p myplug -q`, want: denied},
		{finding: "P8 pytest.ini addopts -p of a local plugin", setup: map[string]string{"proj/myplug.py": "import os\nos.system(\"" + approve + "\")\n", "proj/pytest.ini": "[pytest]\naddopts = -q -p myplug\n"}, cmd: `python3 -m pytest`, want: denied},
		{finding: "P8 pyproject addopts -p of a local plugin", setup: map[string]string{"proj/myplug.py": "import os\nos.system(\"" + approve + "\")\n", "proj/pyproject.toml": "[tool.pytest.ini_options]\naddopts = \"-p myplug\"\n"}, cmd: `pytest`, want: denied},
		{finding: "P8 PYTEST_PLUGINS names a local module", setup: map[string]string{"proj/myplug.py": "import os\nos.system(\"" + approve + "\")\n"}, cmd: `PYTEST_PLUGINS=myplug pytest`, want: denied},
		{finding: "P8 a plugin written then pytest -p", setup: xsh, cmd: `printf 'import os\nos.system("./x.sh")\n' > myplug.py; pytest -p myplug`, want: held},
		{finding: "P8 ordinary: pytest -p no:cacheprovider -p pytest_cov", cmd: `pytest -p no:cacheprovider -p pytest_cov -q`, want: notHeld},
		{finding: "P8 ordinary: pytest.ini addopts with -p no:warnings", setup: map[string]string{"proj/pytest.ini": "[pytest]\naddopts = -ra -p no:warnings\n"}, cmd: `pytest`, want: notHeld},
		{finding: "P8 tests/unit/conftest.py written, then pytest", setup: xsh, cmd: `mkdir -p tests/unit && cp x.sh tests/unit/conftest.py && pytest tests`, want: held},
		{finding: "P8 ordinary: a conftest.py read, then pytest", setup: map[string]string{"proj/conftest.py": "import pytest\n"}, cmd: `cat conftest.py && pytest -q`, want: notHeld},
		{finding: "P8 ordinary: pytest -q with an ordinary conftest.py", setup: map[string]string{"proj/conftest.py": "import pytest\n\n@pytest.fixture\ndef x():\n    return 1\n"}, cmd: `pytest -q`, want: notHeld},

		// P9: files loaded at start.
		{finding: "P685 PYTHONPATH=. imports the project's sitecustomize.py at start", setup: map[string]string{"proj/sitecustomize.py": "import os\nos.system(\"" + approve + "\")\n"}, cmd: `PYTHONPATH=. python3 -c 1`, want: held},
		{finding: "P9 PYTHONPATH=. pytest with sitecustomize", setup: map[string]string{"proj/sitecustomize.py": "import os\nos.system(\"" + approve + "\")\n"}, cmd: `PYTHONPATH=. pytest -q`, want: held},
		{finding: "P9 usercustomize.py", setup: map[string]string{"proj/usercustomize.py": "import os\nos.system(\"" + approve + "\")\n"}, cmd: `PYTHONPATH=. python3 -c 1`, want: held},
		{finding: "P9 python -m x of a local module", setup: map[string]string{"proj/x.py": "import os\nos.system(\"" + approve + "\")\n"}, cmd: `python3 -m x`, want: denied},
		{finding: "P696 perl -Mx with PERL5LIB=. loads x.pm", setup: map[string]string{"proj/x.pm": "package x; system(\"" + approve + "\"); 1;\n"}, cmd: `PERL5LIB=. perl -Mx -e 1`, want: held},
		{finding: "P9 perl -I. -Mx", setup: map[string]string{"proj/x.pm": "package x; system(\"" + approve + "\"); 1;\n"}, cmd: `perl -I. -Mx -e 1`, want: held},
		{finding: "P681 PERL5OPT=-Mx PERL5LIB=.", setup: map[string]string{"proj/x.pm": "package x; system(\"" + approve + "\"); 1;\n"}, cmd: `PERL5OPT=-Mx PERL5LIB=. perl -e 1`, want: held},
		{finding: "P9 ruby -r./x.rb loads x.rb", setup: map[string]string{"proj/x.rb": "system(\"" + approve + "\")\n"}, cmd: `ruby -r./x.rb -e 1`, want: held},
		{finding: "P9 ruby -r ./x.rb", setup: map[string]string{"proj/x.rb": "system(\"" + approve + "\")\n"}, cmd: `ruby -r ./x.rb -e 1`, want: held},
		{finding: "P9 ruby -I. -rx", setup: map[string]string{"proj/x.rb": "system(\"" + approve + "\")\n"}, cmd: `ruby -I. -rx -e 1`, want: held},
		{finding: "P9 node -r ./x.js", setup: map[string]string{"proj/x.js": "require('child_process').execSync('" + approve + "')\n"}, cmd: `node -r ./x.js -e 1`, want: held},
		{finding: "P9 node --import ./x.mjs", setup: map[string]string{"proj/x.mjs": "import {execSync} from 'child_process'; execSync('" + approve + "')\n"}, cmd: `node --import ./x.mjs -e 1`, want: held},
		{finding: "P683 NODE_OPTIONS=--require ./x.js npm test", setup: map[string]string{"proj/x.js": "require('child_process').execSync('" + approve + "')\n"}, cmd: `NODE_OPTIONS='--require ./x.js' npm test`, want: held},
		{finding: "P9 SHELL=./x.sh script -qc", setup: xsh, cmd: `SHELL=./x.sh script -qc true /dev/null`, want: held},
		{finding: "P9 SHELL=./x.sh tmux new -d", setup: xsh, cmd: `SHELL=./x.sh tmux new -d`, want: held},
		{finding: "P9 SHELL=./x.sh screen -dm", setup: xsh, cmd: `SHELL=./x.sh screen -dmS s`, want: denied},
		{finding: "P9 export SHELL=./x.sh; poetry shell", setup: xsh, cmd: `export SHELL=./x.sh; poetry shell`, want: denied},
		{finding: "P695 PYTHONHOME=. python3", cmd: `PYTHONHOME=. python3 -c 1`, want: held},
		{finding: "P9 node --require=./x (no extension)", setup: map[string]string{"proj/x.js": "require('child_process').execSync('" + approve + "')\n"}, cmd: `node --require=./x app.js`, want: denied},
		{finding: "P9 sitecustomize.py written then PYTHONPATH=.", cmd: `printf 'import os\nos.system("` + approve + `")\n' > sitecustomize.py; PYTHONPATH=. python3 -c 1`, want: denied},
		{finding: "P9 direnv allow of an .envrc naming the verb", setup: map[string]string{"proj/.envrc": approve + "\n"}, cmd: `direnv allow .`, want: denied},
		{finding: "P9 ordinary: direnv allow of an ordinary .envrc", setup: map[string]string{"proj/.envrc": "export FOO=1\nPATH_add bin\n"}, cmd: `direnv allow`, want: notHeld},
		{finding: "P9 ordinary: SHELL=/bin/bash tmux new -d", cmd: `SHELL=/bin/bash tmux new -d`, want: notDeny},
		{finding: "P9 ordinary: PYTHONHOME=/usr python3", cmd: `PYTHONHOME=/usr python3 -c 1`, want: notHeld},
		{finding: "P9 ordinary: node --import tsx app.ts", cmd: `node --import tsx app.ts`, want: notHeld},
		{finding: "P682 RUBYOPT=-r./x.rb ruby -e 1", setup: map[string]string{"proj/x.rb": "system(\"" + approve + "\")\n"}, cmd: `RUBYOPT=-r./x.rb ruby -e 1`, want: denied},
		{finding: "P684 NODE_OPTIONS=--import ./x.mjs node -e 1", setup: map[string]string{"proj/x.mjs": "import {execSync} from 'child_process'; execSync('" + approve + "')\n"}, cmd: `NODE_OPTIONS='--import ./x.mjs' node -e 1`, want: denied},
		{finding: "P697 NODE_PATH=. node -e require x", setup: map[string]string{"proj/x.js": "require('child_process').execSync('" + approve + "')\n"}, cmd: `NODE_PATH=. node -e 'require("x")'`, want: denied},
		{finding: "P1037 go env -w GOFLAGS=-exec=./x.sh && go test", setup: xsh, cmd: `go env -w GOFLAGS=-exec=./x.sh && go test ./...`, want: denied},
		{finding: "P1036 go env -w CC=./x.sh && CGO_ENABLED=1 go build", setup: xsh, cmd: `go env -w CC=./x.sh && CGO_ENABLED=1 go build ./...`, want: denied},
		{finding: "P1010 git config --system include.path", setup: map[string]string{"proj/x.cfg": "[core]\n\tfsmonitor = ./x.sh\n"}, cmd: `git config --system include.path @ROOT@/proj/x.cfg`, want: held},
		{finding: "P1011 git config --global includeIf.gitdir path", setup: map[string]string{"proj/x.cfg": "[core]\n\tfsmonitor = ./x.sh\n"}, cmd: `git config --global includeIf.gitdir:~/.path @ROOT@/proj/x.cfg`, want: held},
		{finding: "P9 ordinary: node -r dotenv/config app.js", setup: map[string]string{"proj/app.js": "console.log(1)\n"}, cmd: `node -r dotenv/config app.js`, want: notHeld},
		{finding: "P9 ordinary: PYTHONPATH=src python3 -m pytest", cmd: `PYTHONPATH=src python3 -m pytest -q`, want: notHeld},
		{finding: "P9 ordinary: PYTHONPATH=. python3 src/m.py", cmd: `PYTHONPATH=. python3 src/m.py`, want: notHeld},
		{finding: "P9 ordinary: python3 -m http.server", cmd: `python3 -m venv .venv`, want: notHeld},
		{finding: "P9 ordinary: perl -I lib -MData::Dumper", cmd: `perl -Ilib -MData::Dumper -e 1`, want: notHeld},
		{finding: "P9 ordinary: ruby -rjson", cmd: `ruby -rjson -e 'puts 1'`, want: notHeld},
		{finding: "P9 ordinary: tmux new -d", cmd: `tmux new -d`, want: notDeny},

		// P12 (beyond the brief): runners that hand a file to a known
		// interpreter.
		{finding: "P12 uv run x2.py runs python on a file holding airlock's verb", setup: map[string]string{"proj/x2.py": "import subprocess\nsubprocess.run(\"" + approve + "\", shell=True)\n"}, cmd: `uv run x2.py`, want: denied},
		{finding: "P12 uv run --with requests x2.py", setup: map[string]string{"proj/x2.py": "import subprocess\nsubprocess.run(\"" + approve + "\", shell=True)\n"}, cmd: `uv run --with requests x2.py arg`, want: denied},
		{finding: "P12 yarn node x.cjs runs node on a file holding airlock's verb", setup: map[string]string{"proj/x.cjs": "require(\"child_process\").execSync(\"" + approve + "\")\n"}, cmd: `yarn node x.cjs`, want: denied},
		{finding: "P12 ordinary: uv run src/m.py", cmd: `uv run src/m.py`, want: notHeld},
		{finding: "P12 ordinary: uv run pytest -q", cmd: `uv run pytest -q`, want: notHeld},

		// P14 (beyond the brief): settings that make a tool run a program
		// at its next use.
		{finding: "P14 gh config set pager ./x.sh (gh runs it later)", setup: xsh, cmd: `gh config set pager ./x.sh`, want: held},
		{finding: "P14 gh config set editor to the verb", cmd: `gh config set editor 'airlock queue approve abcd'`, want: denied},
		{finding: "P14 gh config set -h host browser ./x.sh", setup: xsh, cmd: `gh config set -h github.com browser ./x.sh`, want: denied},
		{finding: "P14 kubectl config set-credentials --exec-command=./x.sh", setup: xsh, cmd: `kubectl config set-credentials x --exec-command=./x.sh --exec-api-version=client.authentication.k8s.io/v1`, want: held},
		{finding: "P14 kubectl config set-credentials --exec-command ./x.sh (spaced)", setup: xsh, cmd: `kubectl config set-credentials x --exec-command ./x.sh`, want: denied},
		{finding: "P14 kubectl config set users.x.exec.command", setup: xsh, cmd: `kubectl config set users.x.exec.command ./x.sh`, want: denied},
		{finding: "P14 aws configure set credential_process ./x.sh", setup: xsh, cmd: `aws configure set credential_process ./x.sh`, want: held},
		{finding: "P14 aws configure set profile.x.credential_process ./x.sh", setup: xsh, cmd: `aws configure set profile.x.credential_process ./x.sh`, want: denied},
		{finding: "P14 systemctl --user enable ./x.service", cmd: `systemctl --user enable ./x.service`, want: held},
		{finding: "P14 systemctl --user link of a unit running the verb", setup: map[string]string{"proj/x.service": "[Service]\nExecStart=" + approve + "\n"}, cmd: `systemctl --user link ./x.service`, want: denied},
		{finding: "P14 rustup toolchain link evil ./tc && rustup default evil (every later cargo is ./tc's)", cmd: `rustup toolchain link evil ./tc && rustup default evil`, want: held},
		{finding: "P14 asdf plugin add x ./xplug", cmd: `asdf plugin add x ./xplug`, want: held},
		{finding: "P14 mise plugins link x ./xplug", cmd: `mise plugins link x ./xplug`, want: held},
		{finding: "P14 ordinary: gh config set git_protocol ssh", cmd: `gh config set git_protocol ssh`, want: notDeny},
		{finding: "P14 ordinary: gh config set editor vim", cmd: `gh config set editor vim`, want: notDeny},
		{finding: "P14 ordinary: aws configure set region eu-west-1", cmd: `aws configure set region eu-west-1`, want: notDeny},
		{finding: "P14 ordinary: systemctl --user enable syncthing.service", cmd: `systemctl --user enable syncthing.service`, want: notDeny},
		{finding: "P14 ordinary: rustup default stable", cmd: `rustup default stable`, want: notHeld},
		{finding: "P14 ordinary: kubectl config use-context dev", cmd: `kubectl config use-context dev`, want: notDeny},

		// P10, P11 (beyond the brief): SQL clients' and awk's script files.
		{finding: "P10 sqlite3 .read of a file whose .shell runs x.sh", setup: map[string]string{"proj/x.sh": runsApprove, "proj/cmd.sql": ".shell ./x.sh\n"}, cmd: `sqlite3 x.db '.read cmd.sql'`, want: held},
		{finding: "P10 sqlite3 fed that file on its input", setup: map[string]string{"proj/x.sh": runsApprove, "proj/cmd.sql": ".shell ./x.sh\n"}, cmd: `sqlite3 x.db < cmd.sql`, want: held},
		{finding: "P10 sqlite3 .read of a file whose .shell runs airlock's verb", setup: map[string]string{"proj/cmd.sql": ".shell " + approve + "\n"}, cmd: `sqlite3 x.db '.read cmd.sql'`, want: denied},
		{finding: "P10 sqlite3 .read of a file written in the same command", setup: xsh, cmd: `printf '.system ./x.sh\n' > c2.sql; sqlite3 x.db < c2.sql`, want: held},
		{finding: "P10 sqlite3 .read nested twice", setup: map[string]string{"proj/a.sql": ".read b.sql\n", "proj/b.sql": ".shell " + approve + "\n"}, cmd: `sqlite3 x.db '.read a.sql'`, want: denied},
		{finding: "P11 awk -f of a program file whose system() runs airlock's verb", setup: map[string]string{"proj/p.awk": "BEGIN{system(\"" + approve + "\")}\n"}, cmd: `awk -f p.awk`, want: denied},
		{finding: "P11 awk --file=p.awk", setup: map[string]string{"proj/p.awk": "BEGIN{system(\"" + approve + "\")}\n"}, cmd: `awk --file=p.awk`, want: denied},
		{finding: "P11 gawk -i ./p.awk (an include)", setup: map[string]string{"proj/p.awk": "BEGIN{system(\"" + approve + "\")}\n"}, cmd: `gawk -i ./p.awk 'BEGIN{}'`, want: denied},
		{finding: "P11 psql -f of a file whose \\! runs airlock's verb", setup: map[string]string{"proj/p.sql": "\\! " + approve + "\n"}, cmd: `psql -f p.sql`, want: held},
		{finding: "P11 mysql fed a file whose system line runs airlock's verb", setup: map[string]string{"proj/m.sql": "system " + approve + "\n"}, cmd: `mysql < m.sql`, want: held},
		{finding: "P11 ed fed a script whose ! line runs airlock's verb", setup: map[string]string{"proj/e.ed": "!" + approve + "\nq\n"}, cmd: `ed -s < e.ed`, want: denied},
		{finding: "P11 ed fed a script whose ! line runs x.sh", setup: map[string]string{"proj/x.sh": runsApprove, "proj/e.ed": "!./x.sh\nq\n"}, cmd: `ed -s src/m.py < e.ed`, want: denied},
		{finding: "P11 vim -s keystrokes whose :! runs airlock's verb", setup: map[string]string{"proj/v.vim": ":!" + approve + "\n:q\n"}, cmd: `vim -s v.vim`, want: held},
		{finding: "P11 vim -s keystrokes, the verb refused", setup: map[string]string{"proj/v.vim": ":!" + approve + "\n:q\n"}, cmd: `vim -s v.vim src/m.py`, want: denied},
		{finding: "P11 ordinary: ed -s with an ordinary script", setup: map[string]string{"proj/e.ed": ",s/a/b/g\nw\nq\n"}, cmd: `ed -s src/m.py < e.ed`, want: notHeld},
		{finding: "P11 ordinary: vim -es -c 'wq' file", cmd: `vim -es -c 'wq' src/m.py`, want: notDeny},
		{finding: "P10 ordinary: sqlite3 x.db < schema.sql", setup: map[string]string{"proj/schema.sql": "CREATE TABLE t (a int);\nINSERT INTO t VALUES (1);\n"}, cmd: `sqlite3 x.db < schema.sql`, want: notHeld},
		{finding: "P11 ordinary: awk -f report.awk data.txt", setup: map[string]string{"proj/report.awk": "{ s += $2 } END { print s }\n"}, cmd: `awk -f report.awk src/m.py`, want: notHeld},
		{finding: "P11 ordinary: gawk -i inplace", cmd: `gawk -i inplace '{ sub(/a/, "b") } 1' src/m.py`, want: notDeny},

		// P13 (beyond the brief): project files tools run as code when they read them.
		{finding: "P13 terraform plan runs a data \"external\" program", setup: map[string]string{"proj/main.tf": "data \"external\" \"x\" {\n  program = [\"sh\", \"-c\", \"" + approve + "\"]\n}\n"}, cmd: `terraform plan`, want: denied},
		{finding: "P13 rake -T loads the Rakefile (Ruby)", setup: map[string]string{"proj/Rakefile": "system(\"" + approve + "\")\n"}, cmd: `rake -T`, want: denied},
		{finding: "P13 vagrant status loads the Vagrantfile (Ruby)", setup: map[string]string{"proj/Vagrantfile": "system(\"" + approve + "\")\n"}, cmd: `vagrant status`, want: denied},
		{finding: "P13 scons -n runs the SConstruct (Python)", setup: map[string]string{"proj/SConstruct": "import os\nos.system('" + approve + "')\n"}, cmd: `scons -n`, want: denied},
		{finding: "P13 nox -l imports noxfile.py", setup: map[string]string{"proj/noxfile.py": "import os\nos.system('" + approve + "')\n"}, cmd: `nox -l`, want: denied},
		{finding: "P13 pip install . runs setup.py", setup: map[string]string{"proj/setup.py": "import os\nos.system('" + approve + "')\n"}, cmd: `pip install .`, want: denied},
		{finding: "P13 bazel build of a genrule whose cmd is airlock's verb", setup: map[string]string{"proj/BUILD": "genrule(name='x', outs=['x.txt'], cmd='" + approve + " > $@')\n"}, cmd: `bazel build //:x`, want: denied},
		{finding: "P13 dotnet build runs an MSBuild Exec", setup: map[string]string{"proj/x.csproj": "<Project Sdk=\"Microsoft.NET.Sdk\"><Target Name=\"X\" BeforeTargets=\"Build\"><Exec Command=\"" + approve + "\" /></Target></Project>\n"}, cmd: `dotnet build`, want: denied},
		{finding: "P13 swift build runs Package.swift", setup: map[string]string{"proj/Package.swift": "import Foundation\nlet p = Process(); p.launchPath = \"/bin/sh\"; p.arguments = [\"-c\", \"" + approve + "\"]; p.launch()\n"}, cmd: `swift build`, want: denied},
		{finding: "P13 tilt ci runs the Tiltfile's local()", setup: map[string]string{"proj/Tiltfile": "local('" + approve + "')\n"}, cmd: `tilt ci`, want: denied},
		{finding: "P13 devbox run runs devbox.json's init_hook", setup: map[string]string{"proj/devbox.json": "{\"shell\":{\"init_hook\":[\"" + approve + "\"]}}\n"}, cmd: `devbox run true`, want: denied},
		{finding: "P13 nix-shell runs shell.nix's shellHook", setup: map[string]string{"proj/shell.nix": "{ pkgs ? import <nixpkgs> {} }: pkgs.mkShell { shellHook = \"" + approve + "\"; }\n"}, cmd: `nix-shell --run true`, want: denied},
		{finding: "P13 cargo make runs Makefile.toml's script", setup: map[string]string{"proj/Makefile.toml": "[tasks.build]\nscript = \"" + approve + "\"\n"}, cmd: `cargo make build`, want: denied},
		{finding: "P13 lefthook run runs lefthook.yml's command", setup: map[string]string{"proj/lefthook.yml": "pre-commit:\n  commands:\n    x:\n      run: " + approve + "\n"}, cmd: `lefthook run pre-commit`, want: denied},
		{finding: "P13 goreleaser runs its before hooks", setup: map[string]string{"proj/.goreleaser.yaml": "before:\n  hooks:\n    - " + approve + "\n"}, cmd: `goreleaser build --snapshot`, want: denied},
		{finding: "P13 terraform apply with the verb in a second .tf file", setup: map[string]string{"proj/main.tf": "terraform {}\n", "proj/x.tf": "data \"external\" \"x\" {\n  program = [\"sh\", \"-c\", \"" + approve + "\"]\n}\n"}, cmd: `terraform apply -auto-approve`, want: denied},
		{finding: "P13 pip install -e . runs setup.py", setup: map[string]string{"proj/setup.py": "import os\nos.system('" + approve + "')\n"}, cmd: `pip install -e .`, want: denied},
		{finding: "P13 ordinary: terraform plan of an ordinary main.tf", setup: map[string]string{"proj/main.tf": "resource \"null_resource\" \"x\" {}\n"}, cmd: `terraform plan`, want: notDeny},
		{finding: "P13 ordinary: rake -T with an ordinary Rakefile", setup: map[string]string{"proj/Rakefile": "task :test do\n  ruby 'test/all.rb'\nend\n"}, cmd: `rake -T`, want: notHeld},
		{finding: "P13 ordinary: dotnet build of an ordinary project", setup: map[string]string{"proj/app.csproj": "<Project Sdk=\"Microsoft.NET.Sdk\"></Project>\n"}, cmd: `dotnet build`, want: notDeny},
		{finding: "P13 ordinary: nox -l with an ordinary noxfile", setup: map[string]string{"proj/noxfile.py": "import nox\n\n@nox.session\ndef tests(s):\n    s.run('pytest')\n"}, cmd: `nox -l`, want: notHeld},

		// D1 (beyond the brief): compose's files named by COMPOSE_FILE.
		{finding: "D1 .env sets COMPOSE_FILE=evil.yml, docker compose up", setup: composeFiles("COMPOSE_FILE=evil.yml\n"), cmd: `docker compose up -d`, want: held},
		{finding: "D1 COMPOSE_FILE=evil.yml docker compose up", setup: composeFiles(""), cmd: `COMPOSE_FILE=evil.yml docker compose up -d`, want: held},
		{finding: "D1 export COMPOSE_FILE=docker-compose.yml:evil.yml", setup: composeFiles(""), cmd: `export COMPOSE_FILE=docker-compose.yml:evil.yml; docker compose up -d`, want: held},
		{finding: "D1 docker compose --env-file e.env (COMPOSE_FILE in it)", setup: map[string]string{"proj/docker-compose.yml": "services:\n  web:\n    image: nginx\n", "proj/evil.yml": "services:\n  x:\n    image: alpine\n    privileged: true\n    volumes:\n      - /:/host\n", "proj/e.env": "COMPOSE_FILE=evil.yml\n"}, cmd: `docker compose --env-file e.env up -d`, want: held},
		{finding: "D1 COMPOSE_FILE with a project directory", setup: composeFiles(""), cmd: `COMPOSE_FILE=evil.yml docker compose --project-directory . up -d`, want: held},
		{finding: "D1 ordinary: .env without COMPOSE_FILE, docker compose up", setup: composeFiles("POSTGRES_PASSWORD=x\n"), cmd: `docker compose up -d`, want: notDeny},
		{finding: "D1 ordinary: COMPOSE_FILE naming the ordinary file", setup: composeFiles(""), cmd: `COMPOSE_FILE=docker-compose.yml docker compose up -d`, want: notDeny},
	}
	for i := range cases {
		cases[i].fixed = true
	}
	runFindingCases(t, "9c", base, cases)
}
