package run

import (
	"bufio"
	"bytes"
	"strings"
)

// plainCheck are the Review entries left in place after the run when
// their content is plain: ordinary work writes .env often (a port, a
// database URL), and what makes it code is a few variables.
var plainCheck = map[string]func(path string) bool{".env": plainEnvFile}

// codeEnv are the variables, exact or by prefix (ending in _), that make
// a program load code or hand a tool another program, configuration or
// daemon when a dotenv file is read into the environment (docker
// compose reads COMPOSE_* and DOCKER_* from .env; bun, direnv's dotenv,
// mise and python-dotenv load the whole file).
var codeEnv = []string{
	"COMPOSE_", "DOCKER_", "BUILDKIT_", "NODE_OPTIONS", "NODE_PATH", "NPM_CONFIG_", "YARN_", "BUN_", "DENO_",
	"LD_", "DYLD_", "PYTHONSTARTUP", "PYTHONPATH", "PYTHONHOME", "PYTHONUSERBASE", "PIP_", "UV_", "PERL5OPT", "PERL5LIB",
	"PERLLIB", "RUBYOPT", "RUBYLIB", "GEM_", "BUNDLE_", "BASH_ENV", "ENV", "ZDOTDIR", "PROMPT_COMMAND", "PATH", "SHELL",
	"HOME", "XDG_", "JAVA_TOOL_OPTIONS", "_JAVA_OPTIONS", "JDK_JAVA_OPTIONS", "CLASSPATH", "MAVEN_OPTS", "GRADLE_OPTS",
	"GIT_", "EDITOR", "VISUAL", "PAGER", "BROWSER", "CC", "CXX", "RUSTC", "RUSTC_WRAPPER", "RUSTFLAGS", "CARGO_", "RUSTUP_",
	"GOFLAGS", "GOTOOLCHAIN", "GOENV", "KUBECONFIG", "AWS_CONFIG_FILE", "AWS_SHARED_CREDENTIALS_FILE", "SSLKEYLOGFILE",
	"HTTP_PROXY", "HTTPS_PROXY", "ALL_PROXY", "SSL_CERT_FILE", "NODE_EXTRA_CA_CERTS", "DIRENV_", "MISE_",
}

// plainEnvFile reports a dotenv file whose every line is empty, a
// comment, or KEY=VALUE (export before it allowed) with KEY a name and
// not one of codeEnv (in any case), and a value with no command
// substitution. Anything else (a line it does not read, a link, a file
// past 64 KiB) is not plain.
func plainEnvFile(path string) bool {
	data, err := readSmall(path)
	if err != nil {
		return false
	}
	sc := bufio.NewScanner(bytes.NewReader(data))
	for sc.Scan() {
		line := strings.TrimSpace(sc.Text())
		if line == "" || line[0] == '#' {
			continue
		}
		line = strings.TrimPrefix(line, "export ")
		key, val, ok := strings.Cut(line, "=")
		key = strings.TrimSpace(key)
		if !ok || !envName(key) || strings.Contains(val, "$(") || strings.Contains(val, "`") {
			return false
		}
		up := strings.ToUpper(key)
		for _, c := range codeEnv {
			if up == c || strings.HasSuffix(c, "_") && strings.HasPrefix(up, c) || up == strings.TrimSuffix(c, "_") {
				return false
			}
		}
	}
	return sc.Err() == nil
}

func envName(k string) bool {
	if k == "" {
		return false
	}
	for i, c := range k {
		if !(c == '_' || c >= 'A' && c <= 'Z' || c >= 'a' && c <= 'z' || i > 0 && c >= '0' && c <= '9') {
			return false
		}
	}
	return true
}
