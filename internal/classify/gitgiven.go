package classify

import (
	"strings"

	"github.com/airlock-dev/airlock/internal/argv"
	"github.com/airlock-dev/airlock/internal/shell"
)

// This file collects the git settings a run is given rather than reads
// from a file: git -c KEY=VALUE, git --config-env KEY=ENV, the
// environment's GIT_CONFIG_COUNT with GIT_CONFIG_KEY_n and
// GIT_CONFIG_VALUE_n, and GIT_CONFIG_PARAMETERS (what git -c hands its
// children). git reads each of them as the same "command line" settings,
// so airlock reads them the same way, whichever way they are spelled
// (FINDINGS-9 P16): a command-valued key (core.fsmonitor, an ! alias) is
// classified as the command it is (gitHidden), and include.path or
// includeIf.*.path names a file whose settings are git's too
// (gitExtraConfigs reads it like .git/config).

// gitGiven is one setting given for a git run.
type gitGiven struct {
	// where says how it is given, for reasons: "git -c core.pager",
	// "GIT_CONFIG_KEY_0=include.path".
	where      string
	key, value string
	// dynamic says the value is only known at run time.
	dynamic bool
}

// gitIncludeKey reports include.path and includeIf.<condition>.path:
// keys that name a file of more settings.
func gitIncludeKey(key string) bool {
	k := strings.ToLower(key)
	return k == "include.path" || strings.HasPrefix(k, "includeif.") && strings.HasSuffix(k, ".path")
}

// envValue is an assignment's value as git gets it, and whether it is
// only known at run time. The shell keeps a static value as the value
// itself and one known only at run time as its source text (with its
// quotes, which are taken off for the reason).
func envValue(src string) (string, bool) {
	if strings.ContainsAny(src, "$`") {
		return unquoteValue(src), true
	}
	return src, false
}

// gitGivenSettings returns the settings a git run is given by its
// options (g is its parsed global options) and its environment, and the
// effect of those airlock cannot read (a key known only at run time,
// GIT_CONFIG_PARAMETERS that does not parse, --config-env naming a
// variable the command does not set).
func gitGivenSettings(inv *shell.Invocation, g argv.Parsed) ([]gitGiven, Effect) {
	var given []gitGiven
	var unknown Effect
	for _, f := range g.Flags {
		switch f.Name {
		case "-c":
			k, v, _ := strings.Cut(f.Value, "=")
			given = append(given, gitGiven{where: "git -c " + k, key: k, value: v, dynamic: inv.IsDynamic(1 + f.ValueIndex)})
		case "--config-env":
			k, envName, _ := strings.Cut(f.Value, "=")
			if src, ok := inv.Getenv(envName); ok {
				v, dyn := envValue(src)
				given = append(given, gitGiven{where: "git --config-env " + k, key: k, value: v, dynamic: dyn})
				continue
			}
			if gitCommandKey(k) || gitIncludeKey(k) {
				unknown.Add(opaque("config.dynamic", "git --config-env takes "+clip(k)+" from $"+clip(envName)+", which the command does not set, so its value is only known at run time"))
			}
		}
	}
	if src, ok := inv.Getenv("GIT_CONFIG_PARAMETERS"); ok {
		v, dyn := envValue(src)
		pairs, parsed := gitEnvParameters(v)
		if !parsed {
			pairs, parsed = gitEnvParameters(unquoteValue(v))
		}
		if !parsed || dyn {
			unknown.Add(opaque("config.dynamic", "GIT_CONFIG_PARAMETERS gives git settings airlock cannot read ("+clip(src)+")"))
		}
		for _, kv := range pairs {
			given = append(given, gitGiven{where: "GIT_CONFIG_PARAMETERS " + kv[0], key: kv[0], value: kv[1]})
		}
	}
	// Every GIT_CONFIG_KEY_n is read, whatever GIT_CONFIG_COUNT says:
	// the count may be set where airlock does not see it.
	seen := map[string]bool{}
	for i := len(inv.Env) - 1; i >= 0; i-- {
		name, src, _ := strings.Cut(inv.Env[i], "=")
		n, ok := strings.CutPrefix(name, "GIT_CONFIG_KEY_")
		if !ok || seen[n] {
			continue
		}
		seen[n] = true
		key, keyDyn := envValue(src)
		if keyDyn {
			unknown.Add(opaque("config.dynamic", name+" names a git setting only known at run time ("+clip(src)+"), which can run a program or include a file of settings"))
			continue
		}
		vsrc, _ := inv.Getenv("GIT_CONFIG_VALUE_" + n)
		v, dyn := envValue(vsrc)
		given = append(given, gitGiven{where: name + "=" + key, key: key, value: v, dynamic: dyn})
	}
	return given, unknown
}

// gitEnvElsewhere reads the git settings the environment gives a run of
// another program (a build whose recipe runs git, go or npm fetching a
// dependency, pre-commit): the git it starts gets them, as it gets
// GIT_SSH_COMMAND (commandEnv). Which git command runs is not known, so
// every command key counts, and the files GIT_CONFIG_GLOBAL,
// GIT_CONFIG_SYSTEM, GIT_CONFIG or an include name are read for them.
func (c *Classifier) gitEnvElsewhere(inv *shell.Invocation) Effect {
	if inv.Name() == "git" || c.gitRead {
		return nothing
	}
	named := false
	for _, kv := range inv.Env {
		if strings.HasPrefix(kv, "GIT_CONFIG") {
			named = true
			break
		}
	}
	if !named {
		return nothing
	}
	given, e := gitGivenSettings(inv, argv.Parsed{})
	var files []string
	for _, s := range given {
		if gitIncludeKey(s.key) {
			if s.dynamic {
				e.Add(opaque("git.config", s.where+" names git configuration known only at run time ("+clip(s.value)+"), which can name commands the git that "+inv.Name()+" starts runs"))
				continue
			}
			files = append(files, s.value)
			continue
		}
		e.Add(c.gitSetting(s.where, s.key, s.value, s.dynamic))
	}
	for _, name := range []string{"GIT_CONFIG_GLOBAL", "GIT_CONFIG_SYSTEM", "GIT_CONFIG"} {
		if src, ok := inv.Getenv(name); ok {
			if v, dyn := envValue(src); dyn {
				e.Add(opaque("git.config", name+" names git configuration known only at run time ("+clip(v)+"), which can name commands the git that "+inv.Name()+" starts runs"))
			} else if v != "" && v != "/dev/null" {
				files = append(files, v)
			}
		}
	}
	if len(files) == 0 || c.FS == nil {
		return e
	}
	inner, ok := c.deeper()
	if !ok {
		e.Add(fileLimit("git's configuration"))
		return e
	}
	inner.gitRead = true
	for _, f := range files {
		data, failed, read := c.readScript(inv, f, false)
		switch {
		case read:
			e.Add(inner.gitConfigFor(f, string(data), ""))
		case failed.Reasons != nil:
			e.Add(failed)
		}
	}
	return e
}
