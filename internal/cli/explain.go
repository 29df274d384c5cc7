package cli

const explainHelp = `
Explain one decision.`

func runExplain(e *env) int { return ExitOK }
