package classify

import (
	"path"
	"strings"

	"github.com/airlock-dev/airlock/internal/shell"
)

// This file reads, at decision time, the configuration files that make a
// cluster or cloud CLI run a program to get credentials (FINDINGS-7 G20)
// and gh's aliases (G15):
//
//   - a kubeconfig ($KUBECONFIG, --kubeconfig, ~/.kube/config) whose
//     user has an exec plugin: kubectl and helm run its command (with its
//     args) for a token; a relative command is relative to the file;
//   - an AWS configuration file ($AWS_CONFIG_FILE, ~/.aws/config) whose
//     profile has credential_process: the CLI and the SDKs run it;
//   - gh's config.yml ($GH_CONFIG_DIR, $XDG_CONFIG_HOME/gh,
//     ~/.config/gh) whose alias starts with "!": gh NAME runs the rest
//     as shell text.
//
// The command found is classified as the setting's command (embedded),
// so its runs reach self-protection as a script's lines do. A file the
// same command writes, one named at run time or one that cannot be read
// is opaque for that run (clientconfig.go's readConfig).

// kubeconfigUsers are the programs that read a kubeconfig and run its
// exec plugins.
func kubeconfigUser(name string) bool {
	switch name {
	case "kubectl", "helm", "k9s", "oc", "stern", "flux", "skaffold", "tilt", "istioctl", "linkerd",
		"velero", "kubectx", "kubens", "kustomize", "helmfile", "argocd", "kubeseal", "kubecolor":
		return true
	}
	return false
}

// awsConfigUser are the programs that read the AWS configuration file and
// run its credential_process.
func awsConfigUser(name string) bool {
	switch name {
	case "aws", "sam", "cdk", "eksctl", "terraform", "tofu", "pulumi", "copilot-cli", "chalice", "serverless", "sls":
		return true
	}
	return false
}

// credentialConfig classifies the commands a run's credential
// configuration makes it run.
func (c *Classifier) credentialConfig(inv *shell.Invocation) Effect {
	if inv.Opaque != "" || len(inv.Args) == 0 || inv.Group {
		return nothing
	}
	name := inv.Name()
	var e Effect
	switch {
	case kubeconfigUser(name):
		for _, f := range c.kubeconfigFiles(inv) {
			data, failed, ok := c.readConfig(inv, f)
			e.Add(failed)
			if !ok {
				continue
			}
			for _, cmd := range kubeExecCommands(string(data), path.Dir(f.name)) {
				e.Add(c.embedded("the exec credential plugin of "+f.name, cmd, false))
			}
		}
	case awsConfigUser(name):
		f := clientConfigFile{name: "~/.aws/config"}
		if h, dyn := homeOf(inv); h != "~" || dyn {
			f = clientConfigFile{name: path.Join(h, ".aws/config"), dynamic: dyn}
		}
		if v, dyn, ok := c.envOr(inv, "AWS_CONFIG_FILE"); ok && v != "" {
			f = clientConfigFile{name: v, dynamic: dyn, explicit: true}
		}
		data, failed, ok := c.readConfig(inv, f)
		e.Add(failed)
		if ok {
			for _, cmd := range iniValues(string(data), "credential_process") {
				e.Add(c.embedded("credential_process in "+f.name, cmd, false))
			}
		}
	case name == "gh":
		e.Add(c.ghAlias(inv))
	}
	return e
}

// kubeconfigFiles lists the kubeconfig files a run reads: --kubeconfig,
// else every file of $KUBECONFIG, else ~/.kube/config.
func (c *Classifier) kubeconfigFiles(inv *shell.Invocation) []clientConfigFile {
	args := inv.Args[1:]
	for i, a := range args {
		if a == "--" {
			break
		}
		if v, ok := strings.CutPrefix(a, "--kubeconfig="); ok {
			return []clientConfigFile{{name: v, dynamic: inv.IsDynamic(1 + i), explicit: true}}
		}
		if a == "--kubeconfig" && i+1 < len(args) {
			return []clientConfigFile{{name: args[i+1], dynamic: inv.IsDynamic(2 + i), explicit: true}}
		}
	}
	if v, dyn, ok := c.envOr(inv, "KUBECONFIG"); ok && v != "" {
		var out []clientConfigFile
		for _, p := range strings.Split(v, ":") {
			if p != "" {
				out = append(out, clientConfigFile{name: p, dynamic: dyn, explicit: true})
			}
		}
		return out
	}
	h, dyn := homeOf(inv)
	return []clientConfigFile{{name: path.Join(h, ".kube/config"), dynamic: dyn}}
}

// kubeExecCommands finds the exec plugins of a kubeconfig (YAML or its
// JSON form, read line by line): each "command:" below an "exec:" with
// the "args:" list that follows, as shell text. A relative command with a
// slash is relative to the kubeconfig's directory. An auth provider's
// cmd-path is a command too.
func kubeExecCommands(text, dir string) []string {
	var out []string
	lines := strings.Split(text, "\n")
	for i := 0; i < len(lines); i++ {
		key, val, ok := lineKey(lines[i])
		if !ok || key != "command" && key != "cmd-path" {
			continue
		}
		if val == "" {
			continue
		}
		if !strings.HasPrefix(val, "/") && strings.Contains(val, "/") && dir != "." && dir != "" {
			val = path.Join(dir, val)
		}
		words := []string{val}
		// The args list right after (in the same exec block).
		for j := i + 1; j < len(lines) && j < i+40; j++ {
			k, v, ok := lineKey(lines[j])
			if !ok {
				continue
			}
			if k != "args" {
				if k != "" && k != "apiVersion" && k != "env" && k != "name" && k != "value" && k != "installHint" && k != "provideClusterInfo" && k != "interactiveMode" {
					break
				}
				continue
			}
			if strings.HasPrefix(v, "[") {
				for _, w := range strings.Split(strings.Trim(v, "[]"), ",") {
					if w = yamlScalar(w); w != "" {
						words = append(words, w)
					}
				}
				break
			}
			for k := j + 1; k < len(lines); k++ {
				item := strings.TrimSpace(lines[k])
				w, isItem := strings.CutPrefix(item, "- ")
				if !isItem {
					break
				}
				words = append(words, yamlScalar(w))
			}
			break
		}
		out = append(out, shell.Join(words))
	}
	return out
}

// lineKey reads "key: value" from a YAML line (a list item's "- " and a
// JSON line's quotes and trailing comma dropped); ok false for a line
// that holds no key.
func lineKey(line string) (key, val string, ok bool) {
	t := strings.TrimSpace(line)
	t = strings.TrimPrefix(t, "- ")
	if t == "" || t[0] == '#' {
		return "", "", false
	}
	k, v, found := strings.Cut(t, ":")
	if !found {
		return "", "", false
	}
	k = strings.Trim(strings.TrimSpace(k), `"'`)
	if strings.ContainsAny(k, " {}[]") {
		return "", "", false
	}
	v = strings.TrimSpace(v)
	if i := strings.Index(v, " #"); i >= 0 {
		v = strings.TrimSpace(v[:i])
	}
	v = strings.TrimSuffix(v, ",")
	if !strings.HasPrefix(v, "[") {
		v = yamlScalar(v)
	}
	return k, v, true
}

// yamlScalar unquotes a YAML or JSON scalar.
func yamlScalar(s string) string {
	s = strings.TrimSpace(strings.TrimSuffix(strings.TrimSpace(s), ","))
	if len(s) >= 2 && (s[0] == '"' && s[len(s)-1] == '"' || s[0] == '\'' && s[len(s)-1] == '\'') {
		q := s[0]
		s = s[1 : len(s)-1]
		if q == '"' {
			s = strings.NewReplacer(`\"`, `"`, `\\`, `\`).Replace(s)
		} else {
			s = strings.ReplaceAll(s, "''", "'")
		}
	}
	return s
}

// iniValues returns every value of key in an INI file (any section).
func iniValues(text, key string) []string {
	var out []string
	for _, line := range strings.Split(text, "\n") {
		t := strings.TrimSpace(line)
		if t == "" || t[0] == '#' || t[0] == ';' || t[0] == '[' {
			continue
		}
		k, v, ok := strings.Cut(t, "=")
		if ok && strings.EqualFold(strings.TrimSpace(k), key) {
			if v = strings.TrimSpace(v); v != "" {
				out = append(out, v)
			}
		}
	}
	return out
}

// ghAlias classifies gh NAME when NAME is an alias of gh's configuration:
// a "!" alias is shell text gh runs; another expands to a gh command,
// classified as one. A configuration directory named at run time, or one
// the same command writes, is opaque.
func (c *Classifier) ghAlias(inv *shell.Invocation) Effect {
	if len(inv.Args) < 2 || inv.IsDynamic(1) || strings.HasPrefix(inv.Args[1], "-") {
		return nothing
	}
	name := inv.Args[1]
	if name == "alias" {
		return c.ghAliasSet(inv)
	}
	switch name {
	case "alias", "api", "auth", "browse", "codespace", "gist", "issue", "org", "pr", "project", "release", "repo",
		"cache", "run", "workflow", "co", "attestation", "completion", "config", "extension", "gpg-key", "label",
		"ruleset", "search", "secret", "ssh-key", "status", "variable", "help", "version", "agent-task", "preview":
		return nothing // built in: an alias cannot shadow them
	}
	var f clientConfigFile
	switch v, dyn, ok := c.envOr(inv, "GH_CONFIG_DIR"); {
	case ok && v != "":
		f = clientConfigFile{name: path.Join(v, "config.yml"), dynamic: dyn, explicit: true}
	default:
		if x, dyn, ok := c.envOr(inv, "XDG_CONFIG_HOME"); ok && x != "" {
			f = clientConfigFile{name: path.Join(x, "gh/config.yml"), dynamic: dyn}
		} else {
			h, dyn := homeOf(inv)
			f = clientConfigFile{name: path.Join(h, ".config/gh/config.yml"), dynamic: dyn}
		}
	}
	data, failed, ok := c.readConfig(inv, f)
	if !ok {
		return failed
	}
	in := false
	for _, line := range strings.Split(string(data), "\n") {
		if strings.TrimSpace(line) == "" {
			continue
		}
		if line[0] != ' ' && line[0] != '\t' {
			in = strings.HasPrefix(line, "aliases:")
			continue
		}
		if !in {
			continue
		}
		k, v, ok := lineKey(line)
		if !ok || k != name {
			continue
		}
		rest := inv.Text(2)
		if sh, isShell := strings.CutPrefix(v, "!"); isShell {
			return c.embedded("gh alias "+name+" in "+f.name, strings.TrimSpace(sh+" "+rest), false)
		}
		return c.embedded("gh alias "+name+" in "+f.name, strings.TrimSpace("gh "+v+" "+rest), false)
	}
	return nothing
}

// ghAliasSet classifies gh alias set NAME EXPANSION: a "!" expansion (or
// one with --shell) is shell text gh runs at every later gh NAME, the
// human's included; gh alias import FILE stores every alias of FILE.
func (c *Classifier) ghAliasSet(inv *shell.Invocation) Effect {
	if len(inv.Args) < 4 || inv.IsDynamic(2) {
		return nothing
	}
	var ops []int
	shellFlag := false
	for i := 3; i < len(inv.Args); i++ {
		switch a := inv.Args[i]; {
		case a == "--shell" || a == "-s":
			shellFlag = true
		case a == "--clobber":
		case strings.HasPrefix(a, "-") && a != "-":
		default:
			ops = append(ops, i)
		}
	}
	switch inv.Args[2] {
	case "set":
		if len(ops) < 2 {
			return nothing
		}
		i := ops[1]
		v := inv.Args[i]
		setting := "gh alias set " + inv.Args[ops[0]] + " (run later by gh)"
		if sh, ok := strings.CutPrefix(v, "!"); ok || shellFlag {
			return c.embedded(setting, sh, inv.IsDynamic(i))
		}
		return nothing // a gh command, rated when gh NAME runs
	case "import":
		if len(ops) < 1 {
			return nothing
		}
		i := ops[0]
		if inv.Args[i] == "-" {
			return opaque("gh.alias.import", "gh alias import reads the aliases it stores from standard input, which airlock does not read")
		}
		data, failed, ok := c.readConfig(inv, clientConfigFile{name: inv.Args[i], dynamic: inv.IsDynamic(i), explicit: true})
		if !ok {
			return failed
		}
		var e Effect
		for _, line := range strings.Split(string(data), "\n") {
			if k, v, ok := lineKey(line); ok && v != "" {
				if sh, isShell := strings.CutPrefix(v, "!"); isShell {
					e.Add(c.embedded("gh alias "+k+" imported from "+inv.Args[i]+" (run later by gh)", sh, false))
				}
			}
		}
		return e
	}
	return nothing
}
