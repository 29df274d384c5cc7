package policy

import "strings"

// pwdSpellings are the spellings of the directory a command runs in that
// a mount source may start with: they are known here, as the directory
// is, so "$PWD/.." is the project's parent and not a value known only at
// run time (FINDINGS-5 L16: docker run -v $PWD/..:/h mounted the
// directory holding the home).
var pwdSpellings = []string{"${PWD}", "$PWD", "$(pwd)", "`pwd`", "$(pwd -P)", "$(pwd -L)", "~+"}

// pwdSource replaces a leading spelling of the working directory in a
// mount source with cwd; ok is false when the source starts with none,
// or more of it is known only at run time.
func pwdSource(src, cwd string) (string, bool) {
	s := strings.NewReplacer(`"`, "", `'`, "").Replace(src)
	for _, p := range pwdSpellings {
		rest, ok := strings.CutPrefix(s, p)
		if !ok || rest != "" && rest[0] != '/' {
			continue
		}
		if strings.ContainsAny(rest, "$`") {
			return "", false
		}
		return cwd + rest, true
	}
	return "", false
}
