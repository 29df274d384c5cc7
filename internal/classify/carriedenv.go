package classify

import "strings"

// carriedEnv closes FINDINGS-7 G9 beside carried.go's rule: a URL given
// by the environment (GOPROXY, HTTPS_PROXY, a registry or an index)
// carries the data put into it to that server, whatever the program's own
// words. A value holding command output, or data the command reads at run
// time (carriedVars), beside static text is sent: the run is external. A
// value that is nothing but a substitution (GOPROXY=$(go env GOPROXY)) is
// an address being used, not data.
func carriedEnv(text string, r *Result) {
	var vars map[string]string
	changed := false
	for i := range r.Invocations {
		inv := &r.Invocations[i]
		if inv.Opaque != "" || inv.Effect.Tier == External || len(inv.Env) == 0 {
			continue
		}
		for _, kv := range inv.Env {
			name, value, _ := strings.Cut(kv, "=")
			if !urlEnv(name) || !strings.ContainsAny(value, "$`") {
				continue
			}
			if vars == nil {
				vars = carriedVars(text, r.Invocations)
			}
			src, ok := carriedIn([]string{"", value}, 1, vars, false)
			if !ok && (strings.Contains(value, "$(") || strings.Contains(value, "`")) && strings.Trim(value, `"'`) != strings.Trim(substOnly(value), `"'`) {
				src, ok = "command output", true
			}
			if !ok {
				continue
			}
			x := external("exfil.carried-env", name+"="+clip(value)+" makes "+inv.Name()+" send "+src+" to the server it names")
			inv.Effect.Add(x)
			inv.Effect.NetworkRead = false
			r.Effect.Add(x)
			changed = true
			break
		}
	}
	if changed {
		r.Effect.NetworkRead = false
		for _, inv := range r.Invocations {
			r.Effect.NetworkRead = r.Effect.NetworkRead || inv.Effect.NetworkRead
		}
	}
}

// urlEnv reports whether a variable's value is a URL a program sends
// requests to: a proxy (HTTPS_PROXY, ALL_PROXY), a module proxy or
// checksum database (GOPROXY, GOSUMDB), a package registry or index
// (NPM_CONFIG_REGISTRY, PIP_INDEX_URL, CARGO_REGISTRIES_X_INDEX) or a
// mirror. NO_PROXY lists hosts, which are not sent.
func urlEnv(name string) bool {
	n := strings.ToUpper(name)
	if strings.HasPrefix(n, "NO_PROXY") || strings.HasSuffix(n, "NO_PROXY") || n == "GONOPROXY" || n == "GONOSUMDB" || n == "GOPRIVATE" {
		return false
	}
	return strings.Contains(n, "PROXY") || strings.Contains(n, "REGISTRY") || strings.Contains(n, "INDEX") ||
		strings.Contains(n, "MIRROR") || n == "GOSUMDB" || strings.HasSuffix(n, "_ENDPOINT") || strings.HasSuffix(n, "_ENDPOINT_URL")
}

// substOnly returns the first command substitution of a value ("$(…)" or
// "`…`"), to tell a value that is nothing but one (GOPROXY=$(go env
// GOPROXY)) from a URL with one inside.
func substOnly(v string) string {
	if i := strings.Index(v, "$("); i >= 0 {
		depth := 0
		for j := i + 1; j < len(v); j++ {
			switch v[j] {
			case '(':
				depth++
			case ')':
				depth--
				if depth == 0 {
					return v[i : j+1]
				}
			}
		}
		return v[i:]
	}
	if i := strings.IndexByte(v, '`'); i >= 0 {
		if j := strings.IndexByte(v[i+1:], '`'); j >= 0 {
			return v[i : i+j+2]
		}
	}
	return v
}
