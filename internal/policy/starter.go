package policy

// Starter is the commented file `airlock policy init` writes as the user's
// own policy. Every rule in it carries examples, and a test checks that it
// loads and that they pass.
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
# decision wins. An allow rule in this file, your own, relaxes airlock's
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

// ProjectStarter is the file `airlock policy init --project` writes: the
// project's .airlock/policy.yaml, which everyone who clones the project
// gets. Nothing in it is live: a repository's file that allowed something,
// or set a mode, would loosen the policy of each user who trusts it
// without reading it, so its mode, table and rules are examples, commented
// out. A test checks that it changes no decision, trusted or not, and that
// its examples, uncommented, load and pass.
const ProjectStarter = `# airlock policy of this project (.airlock/policy.yaml), shared by everyone
# who works on it. Docs: docs/POLICY.md. Check it: airlock policy check; run
# the rules' examples: airlock policy test; see what is in effect: airlock
# policy show.
#
# This project's file only tightens each user's own policy: its mode and
# table entries count when they are stricter, and its allow rules relax
# nothing, until a user reviews it and runs "airlock trust" (a change
# untrusts it again). It may not have a notify: section.
#
# Everything below is an example, commented out: this file changes nothing
# until you uncomment what the project needs.
version: 1

# How closely a human watches: interactive, supervised or unattended.
# mode: supervised

# Per-mode overrides of the decision table. Rows: local, shared, external,
# destructive, opaque (cannot be read statically), unknown (tools airlock
# does not know, such as MCP tools). Decisions: allow, warn, ask, defer, deny.
# table:
#   interactive:
#     shared: ask

# Rules. Every matching rule and the table contribute; the strictest
# decision wins. An allow rule here (staging-deploy) counts only once the
# file is trusted.
# rules:
  # - id: no-publish
  #   match:
  #     # argv prefixes, matched after unwrapping sudo, bash -c, npm --prefix ...
  #     command: ["npm publish", "cargo publish"]
  #   decision: deny
  #   message: releases are published by CI from a tag, not from a session
  #   examples:
  #     match: ["npm publish --tag next", "bash -c 'cargo publish'"]
  #     no_match: ["npm pack", "cargo build"]

  # - id: staging-deploy
  #   match: {command: ["fly deploy --app example-staging"]}
  #   decision: allow
  #   message: the staging app is this project's to deploy
  #   examples:
  #     match: ["fly deploy --app example-staging"]
  #     no_match: ["fly deploy --app example-prod"]
`
