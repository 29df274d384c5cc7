package policy

// Starter is the commented file `airlock policy init` writes. Every rule
// in it carries examples, and a test checks that it loads and that they
// pass.
const Starter = `# airlock policy. Docs: docs/POLICY.md. Check it: airlock policy check; run
# the rules' examples: airlock policy test; see what is in effect: airlock
# policy show.
version: 1

# How closely a human watches: interactive (ask when something leaves the
# machine), supervised or unattended (hold it for review instead).
mode: interactive

# Per-mode overrides of the decision table. Rows: local, shared, external,
# destructive, opaque (cannot be read statically), unknown (tools airlock
# does not know, such as MCP tools). Decisions: allow, warn, ask, defer, deny.
# table:
#   interactive:
#     shared: allow

# Rules. Every matching rule and the table contribute; the strictest
# decision wins. An allow rule in this (user) file relaxes airlock's
# built-in defaults for what it matches.
rules:
  - id: personal-fork
    match:
      # argv prefixes, matched after unwrapping sudo, bash -c, git -C ...
      command: ["git push personal"]
    decision: allow
    message: pushing to my personal fork is fine
    examples:
      match: ["git -C ../repo push personal main", "bash -c 'git push personal'"]
      no_match: ["git push origin main"]

  # - id: slack-read-only
  #   match: {tool: "mcp__slack__read_*"}
  #   decision: allow

  # - id: no-pastebins
  #   match: {host: ["*.pastebin.com", "paste.ee"]}
  #   decision: deny
  #   message: do not send or fetch anything from paste sites
`
