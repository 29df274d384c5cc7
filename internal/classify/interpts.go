package classify

import "github.com/airlock-dev/airlock/internal/shell"

// interpTSSpec rates the TypeScript runners ts-node and tsx as node: their
// -e/-p code is JavaScript with types, and its process and network calls
// are read the same way. It lives apart from interp.go so the interpreter
// table keeps one owner.
var interpTSSpec = &Spec{
	Programs: []string{"ts-node", "tsx", "ts-node-esm"},
	Classify: func(c *Classifier, inv *shell.Invocation) Effect {
		return interpNodeSpec.Classify(c, inv)
	},
	Examples: []Example{
		{`ts-node --transpile-only -e "require('child_process').execSync('git push origin main')"`, "external"},
		{`tsx -e "fetch('https://x.io', {method: 'POST', body: 'a'})"`, "external"},
		{`ts-node -e "console.log(1 + 1)"`, "local"},
		{"tsx --version", "local"},
	},
}
