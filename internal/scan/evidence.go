package scan

import (
	"bytes"
	"github.com/airlock-dev/airlock/internal/firstuse"
)

// window is how many lines after a command its output is looked for.
const window = 12

// marker is one shape of output that shows a command ran: a line starting
// with prefix (after indentation) and containing contains; either may be
// empty. match, when set, decides alone.
type marker struct {
	prefix, contains string
	match            func(line []byte) bool
}

func (m *marker) matches(line []byte) bool {
	if m.match != nil {
		return m.match(line)
	}
	t := bytes.TrimLeft(line, " \t")
	return bytes.HasPrefix(t, []byte(m.prefix)) && bytes.Contains(t, []byte(m.contains))
}

// httpMarkers show that an HTTP request was sent: a status line or the
// verbose trace of a request.
var httpMarkers = []marker{
	{prefix: "HTTP/1.1 "}, {prefix: "HTTP/1.0 "}, {prefix: "HTTP/2 "}, {prefix: "HTTP/3 "},
	{prefix: "< HTTP/"}, {prefix: "> POST "}, {prefix: "> PUT "}, {prefix: "> PATCH "}, {prefix: "> DELETE "},
	{prefix: "* Connected to "}, {prefix: "* Trying "},
}

// evidence lists, per family (a spec's first program), the output that
// shows one of its commands ran. Output that shows a failed attempt
// ("npm error", "curl: (6)") counts too: the command was run, and the
// reviewer reads the line.
var evidence = firstuse.Table[map[string][]marker]{Build: func() map[string][]marker {
	return map[string][]marker{
		"git": {
			{match: gitRemoteLine},
			{match: gitRefUpdate},
			{prefix: "Everything up-to-date"},
			{prefix: "remote: "},
			{prefix: "Enumerating objects:"},
			{prefix: "Writing objects:"},
			{prefix: "Total ", contains: "(delta "},
			{prefix: "To ", contains: "!"},
			{prefix: "error: failed to push"},
			{prefix: "Sent [PATCH"}, {prefix: "OK. Log says:"}, {prefix: "Result: 250"},
		},
		"gh": {
			{prefix: "https://", contains: "/pull/"}, {prefix: "https://", contains: "/releases/"},
			{prefix: "https://", contains: "/issues/"},
			{prefix: "✓ "}, {prefix: "! "}, {prefix: "Creating pull request for"},
			{prefix: "Creating draft pull request for"}, {prefix: "HTTP 4"}, {prefix: "GraphQL:"},
		},
		"glab": {
			{prefix: "https://", contains: "merge_requests/"}, {prefix: "Creating merge request for"},
			{prefix: "✓ "},
		},
		"curl":   append([]marker{{contains: "% Total"}, {prefix: "curl: ("}, {prefix: "{"}}, httpMarkers...),
		"wget":   append([]marker{{prefix: "Resolving "}, {prefix: "Connecting to "}, {contains: "request sent, awaiting response"}, {prefix: "Saving to:"}}, httpMarkers...),
		"http":   httpMarkers,
		"npm":    {{prefix: "npm notice"}, {prefix: "npm error"}, {prefix: "npm ERR!"}, {match: plusPackageVersion}},
		"pnpm":   {{prefix: "npm notice"}, {prefix: "npm error"}, {prefix: "ERR_PNPM"}, {match: plusPackageVersion}},
		"yarn":   {{prefix: "success Published"}, {prefix: "[npm]"}, {prefix: "➤ YN"}, {prefix: "info Publishing"}, {match: plusPackageVersion}},
		"bun":    {{prefix: "bun publish"}, {match: plusPackageVersion}, {prefix: "error:"}},
		"cargo":  {{prefix: "Uploading "}, {prefix: "Uploaded "}, {prefix: "Published "}, {prefix: "Packaging "}, {prefix: "Updating crates.io index"}, {prefix: "error: failed to publish"}},
		"twine":  {{prefix: "Uploading distributions to"}, {prefix: "Uploading "}, {prefix: "View at:"}, {contains: "100%"}, {prefix: "ERROR    HTTPError"}},
		"uv":     {{prefix: "Publishing "}, {prefix: "Uploading "}},
		"poetry": {{prefix: "Publishing "}, {prefix: "- Uploading "}},
		"gem":    {{prefix: "Pushing gem to"}, {prefix: "Successfully registered gem"}},
		"mvn":    {{prefix: "Uploading to"}, {prefix: "Uploaded to"}, {prefix: "[INFO] Uploading"}, {prefix: "[INFO] Uploaded"}},
		"gradle": {{prefix: "> Task :publish"}, {contains: ":publish"}},
		"dotnet": {{prefix: "Pushing "}, {prefix: "Your package was pushed"}, {prefix: "info : Pushing"}},
		"docker": {
			{prefix: "The push refers to repository"}, {contains: ": Pushed"}, {contains: ": Layer already exists"},
			{contains: "digest: sha256:"}, {prefix: "Getting image source signatures"}, {prefix: "Copying blob"},
			{prefix: "Writing manifest"},
		},
		"kubectl": {{match: kubeResourceLine}, {prefix: "Error from server"}},
		"helm": {
			{prefix: "Release \""}, {prefix: "STATUS: deployed"}, {prefix: "NAME: "}, {prefix: "REVISION: "},
			{prefix: "Pushed: "}, {prefix: "release \"", contains: "uninstalled"},
		},
		"terraform": {
			{prefix: "Apply complete!"}, {prefix: "Destroy complete!"}, {contains: ": Creating..."},
			{contains: ": Creation complete after"}, {contains: ": Modifying..."}, {contains: ": Destroying..."},
			{contains: ": Destruction complete after"},
		},
		"pulumi":           {{prefix: "Updating ("}, {prefix: "Destroying ("}, {prefix: "Resources:"}, {prefix: "Duration:"}},
		"ansible-playbook": {{prefix: "PLAY ["}, {prefix: "TASK ["}, {prefix: "PLAY RECAP"}},
		"railway": {
			{prefix: "Deploying"}, {prefix: "Deployed"}, {contains: "deployed"}, {prefix: "Production: https://"},
			{prefix: "Website URL:"}, {prefix: "Visit your newly deployed app"}, {contains: "Deploy complete"},
			{prefix: "Uploaded"}, {prefix: "Build Logs:"}, {prefix: "Deploy URL:"}, {prefix: "Current Version ID:"},
			{prefix: "Published "}, {prefix: "Released "}, {prefix: "==> "}, {prefix: "✔"}, {prefix: "✅"},
		},
		"serverless": {
			{prefix: "Deploying"}, {contains: "Successfully created/updated stack"}, {contains: "Service deployed"},
			{contains: "UPDATE_COMPLETE"}, {contains: "CREATE_COMPLETE"}, {contains: "DELETE_COMPLETE"},
			{contains: "Environment update completed successfully"}, {prefix: "✅"}, {prefix: "✔"},
		},
		"aws": {
			{prefix: "upload: "}, {prefix: "copy: "}, {prefix: "delete: "}, {prefix: "move: "},
			{prefix: "{"}, {prefix: "An error occurred ("},
		},
		"gcloud": {
			{prefix: "Updated ["}, {prefix: "Created ["}, {prefix: "Deleted ["}, {prefix: "Copying file://"},
			{contains: "Operation completed over"}, {prefix: "Deploying"}, {prefix: "Service URL:"}, {prefix: "ERROR: ("},
		},
		"az":     {{contains: "\"provisioningState\""}, {prefix: "{"}, {prefix: "ERROR:"}, {prefix: "Finished["}},
		"gsutil": {{prefix: "Copying file://"}, {contains: "Operation completed over"}, {prefix: "Removing gs://"}},
		"doctl":  {{prefix: "ID "}, {prefix: "Notice:"}, {prefix: "Error:"}},
		"ssh": {
			{prefix: "Warning: Permanently added"}, {prefix: "Connection to ", contains: " closed"},
			{prefix: "Number of key(s) added:"}, {prefix: "ssh: "},
		},
		"scp":    {{match: transferProgress}, {prefix: "scp: "}},
		"sftp":   {{prefix: "sftp> "}, {prefix: "Uploading "}, {prefix: "Connected to "}},
		"rsync":  {{prefix: "sent ", contains: " bytes"}, {prefix: "total size is"}, {match: transferProgress}, {prefix: "sending incremental file list"}},
		"rclone": {{prefix: "Transferred:"}, {contains: "INFO  :"}, {contains: "Copied (new)"}},
		"ftp":    {{prefix: "226 "}, {prefix: "150 "}, {prefix: "Connected to "}},
		"lftp":   {{contains: "bytes transferred"}, {prefix: "Total "}},
		"mail":   {{prefix: "Mail sent"}, {prefix: "Message sent"}},
		"sendmail": {
			{prefix: "Mail sent"}, {prefix: "Message sent"}, {prefix: "sendmail: "}, {prefix: "msmtp: "},
			{contains: "Email was sent successfully"},
		},
		"swaks": {{prefix: "=== Trying"}, {prefix: "~> "}, {prefix: "<~ "}, {prefix: "-> "}, {prefix: "<- "}},
		"nc":    {{prefix: "Connection to ", contains: "succeeded"}, {prefix: "Ncat: "}},
		"socat": {{contains: "socat["}},
		"telnet": {
			{prefix: "Trying "}, {prefix: "Connected to "}, {prefix: "Escape character is"},
		},
		"psql": {
			{prefix: "INSERT 0 "}, {prefix: "UPDATE "}, {prefix: "DELETE "}, {prefix: "DROP "}, {prefix: "TRUNCATE"},
			{prefix: "ALTER "}, {prefix: "CREATE "}, {prefix: "Query OK, "}, {prefix: "ERROR:"}, {prefix: "ERROR "},
		},
		"redis-cli": {{prefix: "OK"}, {prefix: "(integer) "}, {prefix: "(error) "}},
		"mongosh":   {{contains: "acknowledged"}, {contains: "deletedCount"}, {contains: "modifiedCount"}},
	}
}}

// shows reports whether line is output of a command of the family: one of
// the family's markers, or an HTTP status line or request trace, which
// interpreters, cloud CLIs and deploy tools print too.
func shows(family string, line []byte) bool {
	for i := range evidence.Get()[family] {
		if evidence.Get()[family][i].matches(line) {
			return true
		}
	}
	for i := range httpMarkers {
		if httpMarkers[i].matches(line) {
			return true
		}
	}
	return false
}

// gitRemoteLine is git push's "To <remote>" line: "To github.com:o/r.git",
// "To https://host/o/r", "To /srv/git/r.git".
func gitRemoteLine(line []byte) bool {
	if !bytes.HasPrefix(line, []byte("To ")) {
		return false
	}
	r := bytes.TrimSpace(line[3:])
	return len(r) > 0 && bytes.IndexByte(r, ' ') < 0 &&
		(bytes.Contains(r, []byte("://")) || bytes.IndexByte(r, ':') > 0 || r[0] == '/' || r[0] == '.')
}

// gitRefUpdate is git's ref update line: "   1a2b3c4..5d6e7f8  main -> main",
// " * [new branch]      feat -> feat", " + 1a2b...9f8e main -> main (forced update)",
// " - [deleted]         old", " ! [rejected]        main -> main (fetch first)".
func gitRefUpdate(line []byte) bool {
	t := bytes.TrimLeft(line, " \t")
	if len(t) < 3 || len(t) == len(line) {
		return false // ref lines are indented
	}
	switch {
	case bytes.HasPrefix(t, []byte("* [new ")), bytes.HasPrefix(t, []byte("- [deleted]")),
		bytes.HasPrefix(t, []byte("! [rejected]")), bytes.HasPrefix(t, []byte("! [remote rejected]")),
		bytes.HasPrefix(t, []byte("= [up to date]")):
		return true
	}
	if t[0] == '+' {
		t = bytes.TrimLeft(t[1:], " ")
	}
	i := bytes.Index(t, []byte(".."))
	if i < 7 || !isHex(t[:i]) {
		return false
	}
	return bytes.Contains(t, []byte(" -> "))
}

func isHex(b []byte) bool {
	for _, c := range b {
		if !(c >= '0' && c <= '9' || c >= 'a' && c <= 'f') {
			return false
		}
	}
	return true
}

// plusPackageVersion is the "+ name@1.2.3" line package managers print
// after publishing.
func plusPackageVersion(line []byte) bool {
	if !bytes.HasPrefix(line, []byte("+ ")) {
		return false
	}
	r := bytes.TrimSpace(line[2:])
	at := bytes.LastIndexByte(r, '@')
	return at > 0 && at+1 < len(r) && r[at+1] >= '0' && r[at+1] <= '9' && bytes.IndexByte(r, ' ') < 0
}

// kubeResourceLine is kubectl's "kind.group/name verb" line:
// "deployment.apps/web configured", "service/api created".
func kubeResourceLine(line []byte) bool {
	f := bytes.Fields(line)
	if len(f) != 2 && !(len(f) == 3 && bytes.HasPrefix(f[2], []byte("("))) {
		return false
	}
	if bytes.IndexByte(f[0], '/') <= 0 {
		return false
	}
	switch string(f[1]) {
	case "created", "configured", "deleted", "patched", "serverside-applied", "scaled", "annotated",
		"labeled", "unchanged", "restarted", "replaced", "rolled", "exposed", "autoscaled", "edited":
		return true
	}
	return false
}

// transferProgress is scp's and rsync's progress line:
// "file.tar   100%  12MB  11.9MB/s   00:01".
func transferProgress(line []byte) bool {
	return bytes.Contains(line, []byte("%")) && (bytes.Contains(line, []byte("B/s")) || bytes.Contains(line, []byte("kB/s")))
}
