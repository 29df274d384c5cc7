package classify

import (
	"io/fs"
	"path"
	"regexp"
	"slices"
	"strings"

	"github.com/airlock-dev/airlock/internal/firstuse"
	"github.com/airlock-dev/airlock/internal/shell"
)

// This file is the one table of build tools and task runners whose
// project files are code airlock has no reader for (CMake's
// execute_process, a Gradle build, build.zig, mix.exs, an Earthfile,
// moon's tasks, a vite config; FINDINGS-9 P13 and P16). When the tool
// runs, each of its files that exists is read and its text goes to
// self-protection like an interpreter script's (Result.Code), so one that
// names airlock's verbs or files is refused; one the same command writes
// in a way airlock cannot read is held (keepTaskCode). What else they run
// is not read: containment is the answer to that. Tools with a reader of
// their own (make, just, task, ninja, mage, rake, npm's scripts, cargo's
// build scripts) are in runners.go; they are listed here too when they
// also load code the reader does not follow.

// buildTool is what one tool reads as code.
type buildTool struct {
	// files are names or path.Match patterns ("*.tf", "project/*.scala")
	// in the directory the tool works in.
	files []string
	// subs, when set, are the subcommands that read them (terraform
	// plan, swift build); a run with another reads nothing.
	subs []string
	// fileFlags name another file read as code (gradle -b F, mvn -f F,
	// zig build --build-file F); dirFlags the directory the files are
	// in (gradle -p D, mvn's -f D too).
	fileFlags, dirFlags []string
	// reader marks a tool with a reader of its own (npm's scripts, go
	// generate, a Rakefile): a run given one of dirFlags is read whole
	// from that directory (rundir.go), and leadingDir says the option
	// counts only as the first word (go -C D).
	reader, leadingDir bool
	// operandDirs makes the directories the operands name hold the files
	// too (pytest DIR, cmake DIR, meson setup B DIR; rundir.go).
	operandDirs bool
	// envFile names a variable that names the file instead (MIX_EXS).
	envFile string
	// operandExt makes operands with this extension code too (zig run
	// x.zig).
	operandExt string
}

var buildTools = firstuse.Table[map[string]buildTool]{Build: func() map[string]buildTool {
	gradle := buildTool{files: []string{"build.gradle", "build.gradle.kts", "settings.gradle", "settings.gradle.kts", "gradle.properties", "buildSrc/build.gradle", "buildSrc/build.gradle.kts", "gradle/*.gradle", "gradle/*.gradle.kts"},
		fileFlags: []string{"-b", "--build-file", "-c", "--settings-file", "-I", "--init-script"}, dirFlags: []string{"-p", "--project-dir"}}
	mvn := buildTool{files: []string{"pom.xml", ".mvn/maven.config", ".mvn/jvm.config", ".mvn/extensions.xml"}, fileFlags: []string{"-f", "--file"}}
	bazel := buildTool{files: []string{"BUILD", "BUILD.bazel", "WORKSPACE", "WORKSPACE.bazel", "MODULE.bazel", ".bazelrc", "*.bzl"}}
	buck := buildTool{files: []string{"BUCK", "TARGETS", "PACKAGE", ".buckconfig", "*.bzl"}}
	mix := buildTool{files: []string{"mix.exs", "config/config.exs", "config/runtime.exs", "config/dev.exs", "config/test.exs", "config/prod.exs"}, envFile: "MIX_EXS"}
	stack := buildTool{files: []string{"Setup.hs", "Setup.lhs", "stack.yaml", "package.yaml", "*.cabal"}}
	js := func(base ...string) buildTool {
		var files []string
		for _, b := range base {
			files = append(files, b+".js", b+".cjs", b+".mjs", b+".ts", b+".cts", b+".mts")
		}
		return buildTool{files: files, fileFlags: []string{"-c", "--config"}}
	}
	return map[string]buildTool{
		// Build systems.
		"cmake":    {files: []string{"CMakeLists.txt", "CMakePresets.json", "CMakeUserPresets.json", "*.cmake"}, dirFlags: []string{"-S"}, operandDirs: true},
		"meson":    {files: []string{"meson.build", "meson_options.txt", "meson.options"}, operandDirs: true},
		"muon":     {files: []string{"meson.build", "meson_options.txt", "meson.options"}, operandDirs: true},
		"gradle":   gradle,
		"gradlew":  gradle,
		"mvn":      mvn,
		"mvnw":     mvn,
		"sbt":      {files: []string{"build.sbt", "project/*.scala", "project/*.sbt", ".sbtopts", ".jvmopts"}},
		"ant":      {files: []string{"build.xml"}, fileFlags: []string{"-f", "-file", "-buildfile"}},
		"bazel":    bazel,
		"bazelisk": bazel,
		"buck":     buck,
		"buck2":    buck,
		"pants":    {files: []string{"pants.toml", "BUILD", "BUILD.pants"}},
		"plz":      {files: []string{"BUILD", "BUILD.plz", ".plzconfig"}},
		"please":   {files: []string{"BUILD", "BUILD.plz", ".plzconfig"}},
		"zig":      {files: []string{"build.zig"}, subs: []string{"build", "run", "test", "build-exe", "build-lib", "build-obj"}, fileFlags: []string{"--build-file"}, operandExt: ".zig"},
		"earthly":  {files: []string{"Earthfile"}},
		"moon":     {files: []string{"moon.yml", "moon.yaml", ".moon/workspace.yml", ".moon/tasks.yml", ".moon/tasks/*.yml"}},
		"mix":      mix,
		"iex":      mix,
		"rebar3":   {files: []string{"rebar.config", "rebar.config.script"}},
		"lein":     {files: []string{"project.clj", "profiles.clj"}},
		"clojure":  {files: []string{"deps.edn"}},
		"clj":      {files: []string{"deps.edn"}},
		"cabal":    {files: []string{"Setup.hs", "Setup.lhs", "*.cabal", "cabal.project"}},
		"stack":    stack,
		"dune":     {files: []string{"dune", "dune-project"}},
		"xmake":    {files: []string{"xmake.lua"}},
		"premake5": {files: []string{"premake5.lua"}},
		"premake4": {files: []string{"premake4.lua"}},
		"scons":    {files: []string{"SConstruct", "Sconstruct", "sconstruct", "SConscript"}},
		"waf":      {files: []string{"wscript"}},
		"nimble":   {files: []string{"*.nimble", "config.nims"}},
		"swift":    {files: []string{"Package.swift"}, subs: []string{"build", "run", "test", "package"}},
		"dotnet":   {files: []string{"*.csproj", "*.fsproj", "*.vbproj", "*.proj", "Directory.Build.props", "Directory.Build.targets"}},
		"msbuild":  {files: []string{"*.csproj", "*.fsproj", "*.vbproj", "*.proj", "Directory.Build.props", "Directory.Build.targets"}},
		"dart":     {files: []string{"hook/build.dart"}},
		// Package managers and go, with readers of their own, told to
		// work in another directory (rundir.go).
		"npm":     {dirFlags: []string{"--prefix", "-C"}, reader: true},
		"pnpm":    {dirFlags: []string{"-C", "--dir"}, reader: true},
		"yarn":    {dirFlags: []string{"--cwd"}, reader: true},
		"yarnpkg": {dirFlags: []string{"--cwd"}, reader: true},
		"bun":     {dirFlags: []string{"--cwd"}, reader: true},
		"go":      {dirFlags: []string{"-C"}, reader: true, leadingDir: true},
		"uv":      {dirFlags: []string{"--directory"}, reader: true},
		"flutter": {files: []string{"hook/build.dart"}},
		// Task runners whose tasks are code.
		"invoke":     {files: []string{"tasks.py"}, dirFlags: []string{"-r", "--search-root"}},
		"inv":        {files: []string{"tasks.py"}, dirFlags: []string{"-r", "--search-root"}},
		"fab":        {files: []string{"fabfile.py"}},
		"doit":       {files: []string{"dodo.py"}},
		"paver":      {files: []string{"pavement.py"}},
		"nox":        {files: []string{"noxfile.py"}, fileFlags: []string{"-f", "--noxfile"}},
		"rake":       {files: []string{"Rakefile", "rakefile", "Rakefile.rb", "rakefile.rb"}, fileFlags: []string{"-f", "--rakefile"}, dirFlags: []string{"-C", "--directory"}, reader: true},
		"gulp":       {files: []string{"gulpfile.js", "gulpfile.cjs", "gulpfile.mjs", "gulpfile.ts"}},
		"grunt":      {files: []string{"Gruntfile.js", "Gruntfile.cjs", "Gruntfile.coffee"}},
		"jake":       {files: []string{"Jakefile", "Jakefile.js"}},
		"poe":        {files: []string{"pyproject.toml"}},
		"hatch":      {files: []string{"pyproject.toml", "hatch.toml"}},
		"pdm":        {files: []string{"pyproject.toml"}, dirFlags: []string{"-p", "--project"}},
		"rye":        {files: []string{"pyproject.toml"}},
		"deno":       {files: []string{"deno.json", "deno.jsonc"}, fileFlags: []string{"-c", "--config"}, dirFlags: []string{"--cwd"}},
		"composer":   {files: []string{"composer.json"}, dirFlags: []string{"-d", "--working-dir"}},
		"mise":       {files: []string{"mise.toml", ".mise.toml"}},
		"pytest":     {files: []string{"conftest.py", "tests/conftest.py", "test/conftest.py"}, operandDirs: true},
		"py.test":    {files: []string{"conftest.py", "tests/conftest.py", "test/conftest.py"}, operandDirs: true},
		"turbo":      {files: []string{"package.json", "turbo.json", "nx.json", "project.json"}, dirFlags: []string{"--cwd"}, reader: true},
		"lerna":      {files: []string{"package.json", "lerna.json"}},
		"nx":         {files: []string{"package.json", "nx.json", "project.json"}},
		"lefthook":   {files: []string{"lefthook.yml", ".lefthook.yml", "lefthook.yaml", ".lefthook.yaml"}},
		"vagrant":    {files: []string{"Vagrantfile"}},
		"tilt":       {files: []string{"Tiltfile"}},
		"devbox":     {files: []string{"devbox.json"}},
		"nix-shell":  {files: []string{"shell.nix", "default.nix"}},
		"nix-build":  {files: []string{"default.nix"}},
		"nix":        {files: []string{"flake.nix", "shell.nix", "default.nix"}},
		"makers":     {files: []string{"Makefile.toml"}},
		"cargo-make": {files: []string{"Makefile.toml"}},
		"goreleaser": {files: []string{".goreleaser.yaml", ".goreleaser.yml", "goreleaser.yaml", "goreleaser.yml"}},
		"terraform":  {files: []string{"*.tf", "*.tf.json"}, subs: []string{"plan", "apply", "refresh", "console", "import", "destroy", "test"}},
		"tofu":       {files: []string{"*.tf", "*.tf.json"}, subs: []string{"plan", "apply", "refresh", "console", "import", "destroy", "test"}},
		"terragrunt": {files: []string{"*.tf", "*.tf.json", "terragrunt.hcl"}, subs: []string{"plan", "apply", "refresh", "console", "import", "destroy", "test", "run-all"}},
		// JavaScript tools that load the project's configuration, which
		// is code.
		"vite":       js("vite.config"),
		"vitest":     js("vitest.config", "vite.config"),
		"webpack":    js("webpack.config"),
		"rollup":     js("rollup.config"),
		"next":       js("next.config"),
		"nuxt":       js("nuxt.config"),
		"nuxi":       js("nuxt.config"),
		"astro":      js("astro.config"),
		"jest":       js("jest.config"),
		"eslint":     js("eslint.config", ".eslintrc"),
		"prettier":   js("prettier.config", ".prettierrc"),
		"babel":      js("babel.config", ".babelrc"),
		"tsup":       js("tsup.config"),
		"playwright": js("playwright.config"),
		"cypress":    js("cypress.config"),
	}
}}

// projectCodeFiles lists the project files a run reads as code (the
// table above, and pip's setup.py, cargo make's Makefile.toml).
func projectCodeFiles(inv *shell.Invocation) []string {
	args := inv.Args
	sub, subAt := "", 0
	for j := 1; j < len(args); j++ {
		if !strings.HasPrefix(args[j], "-") {
			sub, subAt = args[j], j
			break
		}
	}
	switch inv.Name() {
	case "pip", "pip3":
		// pip install . (and -e .) runs the project's setup.py.
		if sub == "install" || sub == "wheel" || sub == "download" {
			var out []string
			for _, a := range args[2:] {
				if a == "." || strings.HasPrefix(a, "./") || strings.HasPrefix(a, "../") || strings.HasPrefix(a, "/") && !strings.HasSuffix(a, ".whl") {
					out = append(out, strings.TrimSuffix(a, "/")+"/setup.py")
				}
			}
			return out
		}
		return nil
	case "cargo":
		if sub == "make" {
			return []string{"Makefile.toml"}
		}
		return nil
	}
	t, ok := buildTools.Get()[inv.Name()]
	if !ok || t.subs != nil && !slices.Contains(t.subs, sub) {
		return nil
	}
	dir := ""
	var out []string
	for j := 1; j < len(args); j++ {
		a := args[j]
		name, val, has := strings.Cut(a, "=")
		if len(a) > 2 && a[0] == '-' && a[1] != '-' && !has && (slices.Contains(t.fileFlags, a[:2]) || slices.Contains(t.dirFlags, a[:2])) {
			// A one-letter option with its value attached (composer -dDIR).
			name, val, has = a[:2], a[2:], true
		}
		isFile, isDir := slices.Contains(t.fileFlags, name), slices.Contains(t.dirFlags, name)
		switch {
		case (isFile || isDir) && !has && j+1 < len(args):
			j++
			val = args[j]
		case (isFile || isDir) && has:
		case t.operandExt != "" && j > subAt && strings.HasSuffix(a, t.operandExt):
			out = append(out, a)
			continue
		case inv.Name() == "earthly" && strings.Contains(a, "+") && !strings.HasPrefix(a, "-"):
			// earthly DIR+target reads DIR/Earthfile.
			if d, _, _ := strings.Cut(a, "+"); d != "" && !strings.Contains(d, "://") && !strings.HasPrefix(d, "github.com/") {
				out = append(out, path.Join(d, "Earthfile"))
			}
			continue
		default:
			continue
		}
		if isDir {
			if !t.reader {
				// A tool with a reader is read from the directory
				// already (rundir.go).
				dir = val
			}
		} else {
			out = append(out, val)
		}
	}
	if t.envFile != "" {
		if v, ok := inv.Getenv(t.envFile); ok && v != "" {
			out = append(out, unquoteValue(v))
		}
	}
	for _, f := range t.files {
		out = append(out, path.Join(dir, f))
	}
	return out
}

// keepProjectCode keeps the text of the project's code files a run reads
// (projectCodeFiles), listing the directory for the patterns.
func (c *Classifier) keepProjectCode(inv *shell.Invocation) Effect {
	files := projectCodeFiles(inv)
	if t, ok := buildTools.Get()[inv.Name()]; ok && c.FS != nil {
		files = append(files, c.operandDirFiles(inv, inv.Args[1:], t)...)
	}
	if len(files) == 0 || c.FS == nil || c.code == nil {
		return nothing
	}
	var names []string
	for _, f := range files {
		if !strings.ContainsAny(f, "*?[") {
			names = append(names, c.fileOrDirFiles(inv, path.Clean(f))...)
			continue
		}
		names = append(names, c.matchFiles(f)...)
	}
	return c.keepTaskCode(inv, names)
}

// matchFiles lists the files (at most 64) of a pattern's directory that
// match it, by name.
func (c *Classifier) matchFiles(pattern string) []string {
	d, ok := c.FS.(interface {
		ReadDir(string) ([]fs.DirEntry, error)
	})
	if !ok {
		return nil
	}
	dir := path.Dir(pattern)
	ents, err := d.ReadDir(dir)
	if err != nil {
		return nil
	}
	var out []string
	for i, ent := range ents {
		if i >= 64 {
			break
		}
		if m, _ := path.Match(path.Base(pattern), ent.Name()); m && !ent.IsDir() {
			out = append(out, path.Join(dir, ent.Name()))
		}
	}
	return out
}

// maxNamedScripts bounds the scripts one build file's text names that are
// read (keepNamedScripts).
const maxNamedScripts = 16

// scriptWord finds words in a build file's text that name a file of the
// project to run: ./x.sh, ../tools/gen, scripts/release.py.
var scriptWord = firstuse.Table[*regexp.Regexp]{Build: func() *regexp.Regexp {
	return regexp.MustCompile(`(?:\.{1,2}/[\w.@+/-]+|[\w.-]+(?:/[\w.@+-]+)*\.(?:sh|bash|zsh|py|rb|pl|js|cjs|mjs|ts|php|lua|ps1))`)
}}

// keepNamedScripts keeps, for self-protection, the text of the project
// files a build file's text names as programs (build.zig running
// ./x.sh, an Earthfile's RUN ./tools/gen.sh, mix.exs's System.cmd
// of scripts/x.py): a build file airlock cannot read may run them, so a
// script naming airlock's verbs or files is refused as if the build
// file named them itself. What else they do is not read: the tool may
// never run them.
func (c *Classifier) keepNamedScripts(inv *shell.Invocation, file string, data []byte) {
	seen := map[string]bool{}
	for _, w := range scriptWord.Get().FindAllString(string(data), -1) {
		if len(seen) >= maxNamedScripts {
			return
		}
		w = path.Clean(strings.TrimRight(w, "."))
		if seen[w] || path.IsAbs(w) || w == "." || w == ".." {
			continue
		}
		seen[w] = true
		if info, err := c.statFile(w); err != nil || !info.Mode().IsRegular() {
			continue
		}
		if text, err := c.readFile(w); err == nil {
			c.keepCode(inv.Name()+" (its "+file+" names "+w+")", w, text)
		}
	}
}

// keepEdited keeps, for self-protection, the text of a build file the
// same command only edits with static text (echo … >> build.gradle, sed
// -i 's/a/b/' pom.xml): the file on disk and each edit's text, which
// together hold every word the edited file can hold. False when another
// kind of write (cp, a download, a program's output, a word known only
// at run time) may leave text airlock cannot read.
func (c *Classifier) keepEdited(inv *shell.Invocation, name string) bool {
	ws := c.cc.writers(inv, name)
	if len(ws) == 0 {
		return false
	}
	for _, w := range ws {
		if !staticEdit(w, name) {
			return false
		}
	}
	var before string
	if data, err := c.readFile(name); err == nil {
		c.keepCode(inv.Name()+" (its "+name+")", name, data)
		before = string(data)
	} else if exists, known := c.exists(name); !known || exists {
		return false
	}
	// What the tool runs is the file after the edits (sededit.go).
	after, ok := editedText(before, ws)
	if !ok {
		return false
	}
	c.keepCode(inv.Name()+" (its "+name+" as edited)", name, []byte(after))
	for _, w := range ws {
		c.keepCode(inv.Name()+" (its "+name+", edited by "+clip(w.Source)+")", name, []byte(w.Source))
	}
	return true
}

// staticEdit reports a run that changes name only by static text: echo
// or printf of static words appended with >>, or sed -i with a static
// script.
func staticEdit(w *shell.Invocation, name string) bool {
	if w.AnyDynamic(0) || w.Opaque != "" {
		return false
	}
	name = path.Clean(name)
	switch w.Name() {
	case "echo", "printf":
		appends := false
		for _, r := range w.Redirects {
			if r.Dynamic {
				return false
			}
			if path.Clean(r.Target) == name {
				if r.Op != ">>" {
					return false
				}
				appends = true
			}
		}
		return appends
	case "sed", "gsed":
		// Only substitutions (s/a/b/g): sed's r, R, e and w commands and
		// the e and w flags bring in text or run programs.
		inPlace, scripts, given := false, []string{}, false
		args := w.Args[1:]
		for j := 0; j < len(args); j++ {
			a := args[j]
			switch {
			case a == "-i" || strings.HasPrefix(a, "-i") || strings.HasPrefix(a, "--in-place"):
				inPlace = true
			case a == "-e" || a == "--expression":
				if j+1 < len(args) {
					scripts, given = append(scripts, args[j+1]), true
					j++
				}
			case strings.HasPrefix(a, "--expression="):
				scripts, given = append(scripts, strings.TrimPrefix(a, "--expression=")), true
			case a == "-f" || strings.HasPrefix(a, "--file"):
				return false // a script from a file
			case strings.HasPrefix(a, "-"):
			case !given:
				scripts, given = append(scripts, a), true
			}
		}
		for _, sc := range scripts {
			for _, part := range strings.Split(sc, ";") {
				if !sedSubstitution.Get().MatchString(strings.TrimSpace(part)) {
					return false
				}
			}
		}
		return inPlace && len(scripts) > 0 && len(w.Redirects) == 0
	}
	return false
}

// sedSubstitution matches one sed s command with a slash, bar, comma or
// hash delimiter and only the flags that print or choose matches.
var sedSubstitution = firstuse.Table[*regexp.Regexp]{Build: func() *regexp.Regexp {
	return regexp.MustCompile(`^s(?:/[^/]*/[^/]*/|\|[^|]*\|[^|]*\||,[^,]*,[^,]*,|#[^#]*#[^#]*#)[gIip0-9]*$`)
}}
