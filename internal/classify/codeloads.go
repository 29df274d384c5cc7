package classify

import (
	"path"
	"regexp"
	"strings"
	"sync"

	"github.com/airlock-dev/airlock/internal/classify/interp"
	"github.com/airlock-dev/airlock/internal/shell"
)

// This file follows the files a run loads as code because an option, a
// variable or a package manager's configuration names them (FINDINGS-7
// G21, G3), the class F6 closed for python -m:
//
//   - a one-liner's local modules: node -e 'require("./x")' and
//     import … from "./x", python3 -c 'import x' (the working directory
//     is on the path), and the bare names NODE_PATH or PYTHONPATH make
//     local;
//   - LUA_INIT=@FILE (lua runs FILE first), PERL5DB (perl -d runs it as
//     code), php -d auto_prepend_file=FILE and auto_append_file;
//   - npm's script-shell and node-options (npm_config_*, --script-shell,
//     a project's or the user's .npmrc), yarn's yarnPath (YARN_YARN_PATH,
//     .yarnrc.yml): the program runs for every script.
//
// A file that exists is read like a script; one the same command writes
// is opaque (readScript).

// jsRequire finds a one-liner's module names: require("x"), import("x"),
// import … from "x", import "x".
var jsRequire = sync.OnceValue(func() *regexp.Regexp {
	return regexp.MustCompile(`(?:\brequire\s*\(\s*|\bimport\s*\(\s*|\bimport\s+(?:[\w*{},\s]+\s+from\s+)?|\bfrom\s+)['"` + "`" + `]([^'"` + "`" + `]+)['"` + "`" + `]`)
})

// pyImport finds a one-liner's top-level module names: import a, b and
// from a import b.
var pyImport = sync.OnceValue(func() *regexp.Regexp {
	return regexp.MustCompile(`(?m)(?:^|[;:]\s*|\bexec\(\s*['"]?)\s*(?:import\s+([\w.]+(?:\s*,\s*[\w.]+)*)|from\s+([\w.]+)\s+import\b)`)
})

// codeImports follows the local modules a one-liner loads.
func (c *Classifier) codeImports(inv *shell.Invocation, who, lang, src string) Effect {
	var e Effect
	switch lang {
	case interp.JavaScript:
		dirs := []string{}
		if v, ok := inv.Getenv("NODE_PATH"); ok {
			dirs = append(dirs, strings.Split(unquoteValue(v), ":")...)
		}
		for _, m := range jsRequire().FindAllStringSubmatch(src, 16) {
			mod := m[1]
			if strings.HasPrefix(mod, "node:") || strings.Contains(mod, "$") {
				continue
			}
			switch {
			case strings.HasPrefix(mod, "./") || strings.HasPrefix(mod, "../") || strings.HasPrefix(mod, "/"):
				e.Add(c.jsModule(inv, who, mod))
			default:
				for _, d := range dirs {
					if d != "" {
						e.Add(c.jsModule(inv, who, path.Join(d, mod)))
					}
				}
			}
		}
	case interp.Python:
		dirs := []string{"."}
		if v, ok := inv.Getenv("PYTHONPATH"); ok {
			dirs = append(dirs, strings.Split(unquoteValue(v), ":")...)
		}
		for _, m := range pyImport().FindAllStringSubmatch(src, 16) {
			names := m[2]
			if m[1] != "" {
				names = m[1]
			}
			for _, n := range strings.Split(names, ",") {
				n = strings.TrimSpace(n)
				if n == "" || strings.HasPrefix(n, ".") {
					continue
				}
				top := strings.SplitN(n, ".", 2)[0]
				for _, d := range dirs {
					if d == "" {
						continue
					}
					e.Add(c.interpScript(inv, who, lang, path.Join(d, top+".py"), false))
					e.Add(c.interpScript(inv, who, lang, path.Join(d, top, "__init__.py"), false))
				}
			}
		}
	}
	return e
}

// jsModule follows a module node resolves from a file name: the file, or
// with .js, .cjs or .mjs, or the directory's index.js.
func (c *Classifier) jsModule(inv *shell.Invocation, who, name string) Effect {
	if !strings.HasPrefix(name, "/") && !strings.HasPrefix(name, ".") {
		name = "./" + name
	}
	for _, f := range []string{name, name + ".js", name + ".cjs", name + ".mjs", path.Join(name, "index.js")} {
		if c.FS != nil {
			if info, err := c.FS.Stat(fsName(f)); err != nil || !info.Mode().IsRegular() {
				if !c.cc.mentions(path.Base(f)) || !c.cc.writtenElsewhere(inv, f) {
					continue
				}
			}
		}
		return c.interpScript(inv, who, interp.JavaScript, f, false)
	}
	return nothing
}

// loadedCode classifies the files a run loads as code through its
// variables and options: LUA_INIT=@FILE, PERL5DB, php -d
// auto_prepend_file, and npm's and yarn's script programs.
func (c *Classifier) loadedCode(inv *shell.Invocation) Effect {
	if inv.Opaque != "" || len(inv.Args) == 0 || inv.Group {
		return nothing
	}
	e := c.loaderCode(inv) // loadvars.go: the table of the others
	name := inv.Name()
	for _, kv := range inv.Env {
		k, v, _ := strings.Cut(kv, "=")
		v = strings.TrimSpace(unquoteValue(v))
		dyn := strings.ContainsAny(v, "$`")
		switch {
		case v == "":
		case k == "LUA_INIT" || strings.HasPrefix(k, "LUA_INIT_"):
			if f, ok := strings.CutPrefix(v, "@"); ok {
				e.Add(c.interpScript(inv, "lua", interp.Lua, f, dyn).through("env.code", k+" makes lua run "+f+" first"))
			} else {
				e.Add(c.embedded(k, "lua -e "+shell.Join([]string{v}), dyn))
			}
		case k == "PERL5DB":
			e.Add(c.embedded(k+" (perl -d runs it)", "perl -e "+shell.Join([]string{v}), dyn))
		}
	}
	switch name {
	case "php", "php-cgi", "php8", "php7":
		args := inv.Args[1:]
		for i := 0; i < len(args); i++ {
			a := args[i]
			var set string
			switch {
			case a == "-d" && i+1 < len(args):
				i++
				set = args[i]
			case strings.HasPrefix(a, "-d") && len(a) > 2:
				set = a[2:]
			case a == "--define" && i+1 < len(args):
				i++
				set = args[i]
			case !strings.HasPrefix(a, "-"):
				i = len(args)
				continue
			default:
				continue
			}
			k, v, _ := strings.Cut(set, "=")
			k = strings.ToLower(strings.TrimSpace(k))
			v = strings.Trim(strings.TrimSpace(v), `"'`)
			if (k == "auto_prepend_file" || k == "auto_append_file") && v != "" && v != "none" {
				e.Add(c.interpScript(inv, "php", interp.PHP, v, inv.IsDynamic(1+i)).through("php.auto-file", "php -d "+k+" runs "+v+" with the program"))
			}
		}
	case "npm", "pnpm", "npx", "yarn", "bun":
		e.Add(c.scriptShell(inv))
	}
	return e
}

// scriptShell classifies the program npm (and pnpm, yarn) runs every
// script with, and the yarn release yarnPath names.
func (c *Classifier) scriptShell(inv *shell.Invocation) Effect {
	var e Effect
	name := inv.Name()
	run := func(setting, v string, dyn bool) {
		if v == "" {
			return
		}
		if !strings.HasPrefix(v, "/") && !strings.HasPrefix(v, ".") && strings.Contains(v, "/") {
			v = "./" + v
		}
		e.Add(c.embedded(setting+" (every script runs through it)", shell.Join([]string{v})+" -c true", dyn))
	}
	nodeOpts := func(setting, v string, dyn bool) {
		words := strings.Fields(v)
		for i := 0; i < len(words); i++ {
			flag, val, ok := strings.Cut(words[i], "=")
			switch flag {
			case "--require", "-r", "--import", "--loader", "--experimental-loader":
				if !ok && i+1 < len(words) {
					i++
					val, ok = words[i], true
				}
				if ok {
					e.Add(c.embedded(setting+" (every node of the scripts loads it)", "node --require "+shell.Join([]string{val})+" -e 0", dyn))
				}
			}
		}
	}
	for _, kv := range inv.Env {
		k, v, _ := strings.Cut(kv, "=")
		v = strings.TrimSpace(unquoteValue(v))
		dyn := strings.ContainsAny(v, "$`")
		switch strings.ToLower(strings.ReplaceAll(k, "-", "_")) {
		case "npm_config_script_shell", "pnpm_config_script_shell":
			run(k, v, dyn)
		case "npm_config_node_options":
			nodeOpts(k, v, dyn)
		case "yarn_yarn_path":
			e.Add(c.yarnPath(inv, k, v, dyn))
		}
	}
	args := inv.Args[1:]
	for i := 0; i < len(args); i++ {
		a := args[i]
		if a == "--" {
			break
		}
		k, v, has := strings.Cut(a, "=")
		if k != "--script-shell" && k != "--node-options" {
			continue
		}
		idx := 1 + i
		if !has {
			if i+1 >= len(args) {
				break
			}
			i++
			v, idx = args[i], 1+i
		}
		if k == "--script-shell" {
			run("npm "+k, v, inv.IsDynamic(idx))
		} else {
			nodeOpts("npm "+k, v, inv.IsDynamic(idx))
		}
	}
	// The project's and the user's configuration files.
	switch name {
	case "npm", "pnpm", "npx":
		files := []clientConfigFile{{name: ".npmrc"}}
		user := clientConfigFile{name: "~/.npmrc"}
		if h, dyn := homeOf(inv); h != "~" || dyn {
			user = clientConfigFile{name: path.Join(h, ".npmrc"), dynamic: dyn}
		}
		for _, k := range []string{"npm_config_userconfig", "NPM_CONFIG_USERCONFIG", "npm_config_globalconfig", "NPM_CONFIG_GLOBALCONFIG"} {
			if v, dyn, ok := c.envOr(inv, k); ok && v != "" {
				if strings.HasSuffix(strings.ToLower(k), "userconfig") {
					user = clientConfigFile{name: v, dynamic: dyn, explicit: true}
				} else {
					files = append(files, clientConfigFile{name: v, dynamic: dyn, explicit: true})
				}
			}
		}
		files = append(files, user)
		for _, cf := range files {
			f := cf.name
			data, failed, ok := c.readConfig(inv, cf)
			e.Add(failed)
			if !ok {
				continue
			}
			for _, line := range strings.Split(string(data), "\n") {
				k, v, ok := strings.Cut(strings.TrimSpace(line), "=")
				if !ok {
					continue
				}
				v = strings.Trim(strings.TrimSpace(v), `"'`)
				switch strings.TrimSpace(k) {
				case "script-shell":
					run("script-shell in "+f, v, strings.Contains(v, "${"))
				case "node-options":
					nodeOpts("node-options in "+f, v, strings.Contains(v, "${"))
				}
			}
		}
	case "yarn":
		data, failed, ok := c.readConfig(inv, clientConfigFile{name: ".yarnrc.yml"})
		e.Add(failed)
		if ok {
			for _, line := range strings.Split(string(data), "\n") {
				if k, v, ok := lineKey(line); ok && k == "yarnPath" {
					e.Add(c.yarnPath(inv, "yarnPath in .yarnrc.yml", v, false))
				}
			}
		}
	}
	return e
}

// yarnPath classifies the yarn release a setting names: yarn runs it with
// node in its place.
func (c *Classifier) yarnPath(inv *shell.Invocation, setting, v string, dyn bool) Effect {
	if v == "" {
		return nothing
	}
	if dyn {
		return opaque("config.dynamic", setting+" names the yarn release run in yarn's place at run time ("+clip(v)+")")
	}
	if !strings.HasPrefix(v, "/") && !strings.HasPrefix(v, ".") {
		v = "./" + v
	}
	return c.interpScript(inv, "yarn", interp.JavaScript, v, false).through("yarn.path", setting+" makes yarn run "+v+" in its place")
}
