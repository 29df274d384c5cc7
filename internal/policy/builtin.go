package policy

// builtinRules are the rules every policy starts with: reading secrets is
// denied, because a file's content ends up in the model's context and from
// there can leave the machine in any later call. Each carries examples
// that `airlock policy test` and the package tests run.
//
// They are Go values, not YAML, so that the hot path parses nothing it
// does not have to.
func builtinRules() []ruleDoc {
	readers := []string{"Read", "Grep"}
	ex := func(want bool, path string) exampleDoc {
		return exampleDoc{want: want, tool: "Read", path: path}
	}
	return []ruleDoc{
		{
			id: "builtin.secrets.ssh", decision: Deny,
			message: "private SSH keys are secrets; reading them needs a human (asked in interactive mode, refused otherwise)",
			match: matchDoc{tool: readers, path: []string{"~/.ssh/**"},
				notPath: []string{"~/.ssh/*.pub", "~/.ssh/known_hosts", "~/.ssh/known_hosts.old"}},
			examples: []exampleDoc{ex(true, "~/.ssh/id_ed25519"), ex(true, "~/.ssh/config"), ex(false, "~/.ssh/id_ed25519.pub"), ex(false, "/tmp/ssh/id_rsa")},
		},
		{
			id: "builtin.secrets.env", decision: Deny,
			message: ".env files hold credentials; reading them needs a human (asked in interactive mode, refused otherwise; templates such as .env.example are fine)",
			match: matchDoc{tool: readers, path: []string{"**/.env", "**/.env.*"},
				notPath: []string{"**/.env.example", "**/.env.sample", "**/.env.template", "**/.env.dist"}},
			examples: []exampleDoc{ex(true, "/work/app/.env"), ex(true, "/work/app/.env.production"), ex(false, "/work/app/.env.example"), ex(false, "/work/app/env.go")},
		},
		{
			id: "builtin.secrets.credentials", decision: Deny,
			message: "credential files are secrets; reading them needs a human (asked in interactive mode, refused otherwise)",
			match: matchDoc{tool: readers, path: []string{
				"~/.aws/credentials", "~/.aws/sso/cache/**", "~/.config/gcloud/**", "~/.azure/**",
				"~/.kube/config", "~/.docker/config.json", "~/.netrc", "~/.git-credentials",
				"~/.npmrc", "~/.pypirc", "~/.gem/credentials", "~/.cargo/credentials*",
				"~/.config/gh/hosts.yml", "~/.gnupg/**", "~/.password-store/**",
				"**/id_rsa", "**/id_dsa", "**/id_ecdsa", "**/id_ed25519",
			}},
			examples: []exampleDoc{ex(true, "~/.aws/credentials"), ex(true, "~/.config/gh/hosts.yml"), ex(true, "/srv/deploy/id_rsa"), ex(false, "~/.aws/config"), ex(false, "/work/app/credentials.go")},
		},
	}
}
