package classify

import (
	"strings"
	"sync"
)

// This file says, per program, which options take a value in the next
// word and which take none. A rule made from a held command (package
// rulemake) and the matcher of rule patterns (package policy) both need it:
// "git push -q origin" has no option value, so a pattern may not skip the
// word after -q. An option a program's table does not list has an unknown
// arity: a pattern ends there and a match fails there, never guessing.

// optionTable is what airlock knows of one program's (or subcommand's)
// options. Short options are single letters; long options and the
// multi-letter single-dash words some programs use (wget -nv) are listed
// whole.
type optionTable struct {
	shortValue, shortFlag string
	value, flag           map[string]bool
}

func optionWords(s string) map[string]bool {
	m := map[string]bool{}
	for _, w := range strings.Fields(s) {
		m[w] = true
	}
	return m
}

// The tables are built on first use, not at start: an allowed hook call
// that matches no rule never needs them.
var (
	arityOnce                        sync.Once
	gitGlobalOptions, gitPushOptions optionTable
	optionTables                     map[string]optionTable
)

func buildArity() {
	gitGlobalOptions = optionTable{
		shortValue: "Cc", shortFlag: "pPh",
		value: optionWords("--git-dir --work-tree --namespace --config-env --super-prefix --list-cmds"),
		flag:  optionWords("--paginate --no-pager --bare --no-replace-objects --literal-pathspecs --glob-pathspecs --noglob-pathspecs --icase-pathspecs --no-optional-locks --version --help --exec-path --html-path --man-path --info-path --no-lazy-fetch --no-advice"),
	}
	gitPushOptions = optionTable{
		shortValue: "o", shortFlag: "qvfnud46",
		value: optionWords("--push-option --repo --receive-pack --exec"),
		// git's optional values (--force-with-lease[=…], --signed[=…],
		// --recurse-submodules[=…]) must be attached with "=".
		flag: optionWords("--all --branches --mirror --tags --follow-tags --no-follow-tags --dry-run --porcelain --delete --force --prune --no-prune --verbose --quiet --set-upstream --atomic --no-atomic --no-verify --verify --progress --no-progress --thin --no-thin --ipv4 --ipv6 --signed --no-signed --force-with-lease --no-force-with-lease --force-if-includes --no-force-if-includes --recurse-submodules --no-recurse-submodules"),
	}
	optionTables = map[string]optionTable{
		"curl": {
			shortValue: "AbcCdDeEFHKmoPQrTtuUwxXyYz", shortFlag: "sSLkvifGINnOqRjJl0123456#aBgMpZ",
			value: optionWords("--data --data-raw --data-binary --data-urlencode --data-ascii --json --form --form-string --header --request --output --user --user-agent --referer --cookie --cookie-jar --url --upload-file --max-time --connect-timeout --proxy --proxy-user --cacert --capath --cert --key --cert-type --key-type --config --write-out --retry --retry-delay --retry-max-time --resolve --connect-to --unix-socket --abstract-unix-socket --oauth2-bearer --range --output-dir --variable --aws-sigv4 --netrc-file --dump-header --stderr --trace --trace-ascii --limit-rate --interface --ciphers --pinnedpubkey --proto --proto-redir --max-filesize --max-redirs --keepalive-time --time-cond --continue-at --quote --preproxy --socks5 --socks5-hostname --socks4 --socks4a --dns-servers --doh-url --hostpubmd5 --hostpubsha256 --login-options --mail-from --mail-rcpt --mail-auth --noproxy --pass --request-target --expect100-timeout --happy-eyeballs-timeout-ms --local-port --speed-limit --speed-time --tls-max --tlsuser --tlspassword --url-query --etag-save --etag-compare"),
			flag:  optionWords("--silent --show-error --location --location-trusted --insecure --verbose --include --head --fail --fail-with-body --fail-early --compressed --get --remote-name --remote-name-all --remote-header-name --no-progress-meter --progress-bar --globoff --http1.0 --http1.1 --http2 --http2-prior-knowledge --http3 --http3-only --ipv4 --ipv6 --create-dirs --no-buffer --raw --tcp-nodelay --no-keepalive --netrc --netrc-optional --ssl --ssl-reqd --tlsv1 --tlsv1.0 --tlsv1.1 --tlsv1.2 --tlsv1.3 --path-as-is --disable --anyauth --basic --digest --ntlm --negotiate --junk-session-cookies --post301 --post302 --post303 --retry-all-errors --retry-connrefused --parallel --no-clobber --remove-on-error --styled-output --no-styled-output --version --help --manual --append --list-only --use-ascii --xattr --no-sessionid --no-alpn --no-npn"),
		},
		"gh": {
			shortValue: "RbBtmFpaqjs", shortFlag: "dwfh",
			value: optionWords("--repo --hostname --body --body-file --title --base --head --label --assignee --reviewer --milestone --project --jq --template --json --subject --author-email --match-head-commit"),
			flag:  optionWords("--help --draft --web --fill --squash --merge --rebase --auto --admin --delete-branch --yes --disable-auto"),
		},
		"kubectl": {
			shortValue: "nfoslcp", shortFlag: "AwiqRt",
			value: optionWords("--context --namespace --kubeconfig --cluster --user --filename --output --selector --container --server --token --as --as-group --field-selector --kustomize --request-timeout --timeout --field-manager"),
			flag:  optionWords("--all-namespaces --force --recursive --watch --stdin --tty --quiet --wait --server-side --prune --all --overwrite --insecure-skip-tls-verify --help"),
		},
		"ssh": {shortValue: "BbcDEeFIiJLlmOoPpQRSWw", shortFlag: "46AaCfGgKkMNnqsTtVvXxYy"},
		"scp": {shortValue: "cDFiJlOoPSX", shortFlag: "346ABCdpqRrTv"},
		"wget": {
			shortValue: "OoaeiPUtTwQBlARDIX", shortFlag: "qvNcrmpkKxSbEHLF46hV",
			value: optionWords("--output-document --output-file --append-output --execute --input-file --directory-prefix --user-agent --tries --timeout --wait --quota --base --level --accept --reject --domains --include-directories --exclude-directories --header --post-data --post-file --body-data --body-file --method --user --password --http-user --http-password --referer --load-cookies --save-cookies --ca-certificate --ca-directory --certificate --private-key --limit-rate --config --bind-address --dns-timeout --connect-timeout --read-timeout --proxy-user --proxy-password"),
			flag:  optionWords("-nv -np -nc -nd -nH --quiet --verbose --no-verbose --continue --recursive --mirror --page-requisites --convert-links --no-parent --no-check-certificate --server-response --spider --timestamping --no-clobber --show-progress --content-disposition --no-directories --force-directories --inet4-only --inet6-only --no-cookies --keep-session-cookies --backups --version --help --adjust-extension --span-hosts --relative --debug --progress"),
		},
	}
}

// gitSubcommand returns the index of git's subcommand in args (after its
// global options), or len(args).
func gitSubcommand(args []string) int {
	for i := 1; i < len(args); i++ {
		a := args[i]
		if !strings.HasPrefix(a, "-") || a == "-" {
			return i
		}
		if a == "--" {
			return i + 1
		}
		if sep, known := gitGlobalOptions.arity(a); sep && known {
			i++
		}
	}
	return len(args)
}

// arity reads one option word against the table: whether its value is the
// next word, and whether the table knows the option at all.
func (t optionTable) arity(w string) (separate, known bool) {
	if strings.HasPrefix(w, "--") {
		name, _, attached := strings.Cut(w, "=")
		switch {
		case t.value[name]:
			return !attached, true
		case t.flag[name] && !attached:
			return false, true
		}
		return false, false
	}
	if t.flag[w] {
		return false, true
	}
	if t.value[w] {
		return true, true
	}
	// A cluster of short options: flags, then at most one that takes a
	// value (its value is the rest of the word, or the next word).
	for k := 1; k < len(w); k++ {
		c := w[k]
		switch {
		case strings.IndexByte(t.shortValue, c) >= 0:
			return k == len(w)-1, true
		case strings.IndexByte(t.shortFlag, c) >= 0:
		default:
			return false, false
		}
	}
	return false, true
}

// OptionArity says whether the option word args[i] of a program run takes
// its value from the next word (separate), and whether airlock knows the
// option at all (known). An option of a program or subcommand airlock has
// no table for is never known.
func OptionArity(args []string, i int) (separate, known bool) {
	if len(args) == 0 || i <= 0 || i >= len(args) {
		return false, false
	}
	arityOnce.Do(buildArity)
	name := args[0]
	if j := strings.LastIndexByte(name, '/'); j >= 0 {
		name = name[j+1:]
	}
	w := args[i]
	if name == "git" {
		sub := gitSubcommand(args)
		switch {
		case i < sub:
			return gitGlobalOptions.arity(w)
		case sub < len(args) && args[sub] == "push":
			return gitPushOptions.arity(w)
		}
		return false, false
	}
	t, ok := optionTables[name]
	if !ok {
		return false, false
	}
	return t.arity(w)
}
