package classify

import (
	"github.com/airlock-dev/airlock/internal/firstuse"
	"strings"

	"github.com/airlock-dev/airlock/internal/argv"
	"github.com/airlock-dev/airlock/internal/shell"
)

// This file rates the cloud CLIs: aws, gcloud, az, gsutil, doctl and oci.
// Their commands name a verb (aws ec2 terminate-instances, gcloud compute
// instances delete, az vm start): the verb says whether the command reads
// live state (local+netread), changes it (external) or deletes it
// (external+destructive). Copies are rated by direction: to a bucket is
// external, from a bucket is a network read. Verbs come from deployVerbs
// (deploy.go); a command whose verb is unknown is taken as a read.

// cloudVerbOf rates a command word, seeing through batch- and bulk-
// prefixes (batch-delete-item, bulk-upload).
func cloudVerbOf(w string) deployKind {
	w = strings.TrimPrefix(strings.TrimPrefix(w, "batch-"), "bulk-")
	return deployVerbOf(w)
}

// cloudScan finds the most severe verb among words, as deployScan does.
func cloudScan(words []string) (deployKind, int) {
	return deployScanWith(words, cloudVerbOf)
}

// cloudEffect words the effect of a command path of a cloud CLI.
func cloudEffect(tool, site, cmd string, k deployKind) Effect {
	switch k {
	case deployDestroy:
		return external(tool+".delete", cmd+" deletes resources on "+site).destroys()
	case deployWrite:
		return external(tool+".write", cmd+" changes resources on "+site)
	case deployRead:
		return netRead(tool+".read", cmd+" reads from "+site)
	}
	return netRead(tool+".read", cmd+" is not a command airlock knows; taken as a read from "+site)
}

// cloudCLI describes one verb-scanned cloud CLI.
type cloudCLI struct {
	name string
	site string
	// opts lists the options that take a value.
	opts argv.Spec
	// shortH says -h asks for help.
	shortH bool
	// skip lists leading words that are groups although they look like
	// verbs (gcloud run, az tag): skipped when more words follow.
	skip map[string]bool
	// alias maps short verb aliases to verbs (doctl d → delete).
	alias map[string]string
	// special rates argument-dependent command paths first.
	special func(c *Classifier, inv *shell.Invocation, words []string, wordAt []int, p argv.Parsed) (Effect, bool)
}

// classify rates one invocation of a cloud CLI.
func (t *cloudCLI) classify(c *Classifier, inv *shell.Invocation) Effect {
	args := inv.Args[1:]
	if forgeWantsHelp(args, t.shortH) {
		return nothing
	}
	p := t.opts.Parse(args)
	var words []string
	var wordAt []int
	for i, o := range p.Operands {
		if p.OperandIndex[i] > 0 && args[p.OperandIndex[i]-1] == "--" {
			break
		}
		if inv.IsDynamic(1+p.OperandIndex[i]) && len(words) < 3 {
			return opaque(t.name+".dynamic", "the "+t.name+" command is computed at run time ("+o+")")
		}
		if a, ok := t.alias[o]; ok && len(words) > 0 {
			o = a
		}
		words = append(words, o)
		wordAt = append(wordAt, 1+p.OperandIndex[i])
	}
	if t.special != nil {
		if e, ok := t.special(c, inv, words, wordAt, p); ok {
			return e
		}
	}
	if len(words) == 0 {
		return nothing
	}
	start := 0
	for start < len(words)-1 && (words[start] == "alpha" || words[start] == "beta" || words[start] == "preview") {
		start++ // gcloud release tracks
	}
	if start < len(words)-1 && t.skip[words[start]] {
		start++
	}
	k, at := cloudScan(words[start:])
	if k == deployNone {
		return cloudEffect(t.name, t.site, t.name+" "+strings.Join(words[:min(len(words), 3)], " "), k)
	}
	cmd := t.name + " " + strings.Join(words[:start+at+1], " ")
	if (k == deployWrite || k == deployDestroy) && (publishDryRun(p) || p.Has("--dryrun")) {
		return netRead(t.name+".dry-run", cmd+" --dry-run only checks the request against "+t.site)
	}
	return cloudEffect(t.name, t.site, cmd, k)
}

// cloudSharedPath rates command paths that change this machine's login or
// configuration: words must start with one of the paths.
func cloudSharedPath(tool string, words []string, paths ...string) (Effect, bool) {
	for _, path := range paths {
		pw := strings.Fields(path)
		if len(words) < len(pw) {
			continue
		}
		match := true
		for i, w := range pw {
			if words[i] != w {
				match = false
				break
			}
		}
		if match {
			return shared(tool+".config", tool+" "+path+" changes this machine's cloud login or configuration"), true
		}
	}
	return Effect{}, false
}

// cloudBucketCopy rates a copy between this machine and a bucket: ops are
// the operands after the verb, dyn says which are only known at run time.
// A bucket URL after the first operand is a destination (an upload), one
// only first is a download; a destination computed at run time may be a
// bucket, so it is rated as one.
func cloudBucketCopy(tool, cmd, scheme string, ops []string, dyn []bool, sync, deletes bool) Effect {
	isBucket := func(o string) bool { return strings.HasPrefix(strings.TrimLeft(o, `"'`), scheme) }
	up, dynDest := false, false
	for i := 1; i < len(ops); i++ {
		if isBucket(ops[i]) {
			up = true
		}
		if i < len(dyn) && dyn[i] {
			dynDest = true
		}
	}
	mv := strings.HasSuffix(cmd, " mv")
	switch {
	case up:
		e := external(tool+".upload", cmd+" copies data into a bucket")
		if deletes {
			e = external(tool+".upload", cmd+" --delete copies data into a bucket and deletes what the source lacks").destroys()
		}
		return e
	case len(ops) > 0 && isBucket(ops[0]) && mv:
		return external(tool+".move", cmd+" moves objects out of a bucket, deleting them there")
	case len(ops) > 0 && isBucket(ops[0]):
		e := netRead(tool+".download", cmd+" downloads from a bucket")
		if deletes && sync {
			e = local(tool+".download", cmd+" --delete downloads from a bucket and deletes local files the bucket lacks").destroys().reads()
		}
		return e
	case dynDest:
		return external(tool+".upload", cmd+" copies to a destination computed at run time, which may be a bucket")
	}
	return netRead(tool+".read", cmd+" copies between places airlock cannot tell apart; taken as a read")
}

// cloudDyn says which operands are only known at run time: idx are their
// positions relative to inv.Args[base].
func cloudDyn(inv *shell.Invocation, idx []int, base int) []bool {
	out := make([]bool, len(idx))
	for i, x := range idx {
		out[i] = inv.IsDynamic(base + x)
	}
	return out
}

// ---- aws ----

var awsOpts = argv.Spec{
	Long: []string{"--profile", "--region", "--output", "--endpoint-url", "--query", "--cli-input-json", "--cli-input-yaml",
		"--color", "--ca-bundle", "--cli-read-timeout", "--cli-connect-timeout", "--cli-binary-format", "--page-size",
		"--max-items", "--starting-token", "--acl", "--storage-class", "--exclude", "--include", "--content-type", "--sse",
		"--sse-kms-key-id", "--sse-c", "--sse-c-key", "--expires", "--metadata", "--metadata-directive", "--grants",
		"--cache-control", "--content-disposition", "--content-encoding", "--content-language", "--website-redirect",
		"--expected-size", "--source-region", "--request-payer", "--checksum-algorithm", "--expires-in",
		"--index-document", "--error-document"},
}

// awsVerbs rates the first word of an aws operation name. Anything not
// listed is taken as a read, as describe-, list- and get- are.
var awsVerbs = firstuse.Table[map[string]deployKind]{Build: func() map[string]deployKind {
	return map[string]deployKind{
		"delete": deployDestroy, "terminate": deployDestroy, "purge": deployDestroy,
		"put": deployWrite, "create": deployWrite, "update": deployWrite, "run": deployWrite, "invoke": deployWrite,
		"send": deployWrite, "publish": deployWrite, "start": deployWrite, "stop": deployWrite, "attach": deployWrite,
		"detach": deployWrite, "modify": deployWrite, "remove": deployWrite, "deploy": deployWrite, "tag": deployWrite,
		"untag": deployWrite, "set": deployWrite, "upload": deployWrite, "import": deployWrite, "register": deployWrite,
		"deregister": deployWrite, "associate": deployWrite, "disassociate": deployWrite, "enable": deployWrite,
		"disable": deployWrite, "reboot": deployWrite, "restore": deployWrite, "copy": deployWrite, "write": deployWrite,
		"reset": deployWrite, "cancel": deployWrite, "accept": deployWrite, "reject": deployWrite, "authorize": deployWrite,
		"revoke": deployWrite, "allocate": deployWrite, "release": deployWrite, "replace": deployWrite, "add": deployWrite,
		"apply": deployWrite, "execute": deployWrite, "assign": deployWrite, "unassign": deployWrite, "change": deployWrite,
		"promote": deployWrite, "rotate": deployWrite, "respond": deployWrite, "subscribe": deployWrite,
		"unsubscribe": deployWrite, "confirm": deployWrite, "complete": deployWrite, "abort": deployWrite,
		"submit": deployWrite, "request": deployWrite, "increase": deployWrite, "decrease": deployWrite,
		"rename": deployWrite, "move": deployWrite, "resize": deployWrite, "schedule": deployWrite, "failover": deployWrite,
		"export": deployWrite, "purchase": deployWrite, "resume": deployWrite, "suspend": deployWrite, "pause": deployWrite,
		"recover": deployWrite, "retry": deployWrite, "signal": deployWrite, "push": deployWrite, "package": deployWrite,
		"sync": deployWrite, "renew": deployWrite, "resend": deployWrite, "archive": deployWrite, "unarchive": deployWrite,
		"lock": deployWrite, "unlock": deployWrite, "activate": deployWrite, "deactivate": deployWrite, "share": deployWrite,
		"unshare": deployWrite, "initiate": deployWrite, "notify": deployWrite, "discard": deployWrite, "grant": deployWrite,
		"transact": deployWrite, "install": deployWrite, "uninstall": deployWrite,
		"rollback": deployWrite, "redeploy": deployWrite, "provision": deployWrite, "deprovision": deployDestroy,
		"batch": deployWrite, "wipe": deployDestroy, "close": deployWrite, "open": deployWrite, "revert": deployWrite,
		"reload": deployWrite, "restart": deployWrite, "scale": deployWrite, "test": deployRead,
	}
}}

var awsSpec = &Spec{
	Programs: []string{"aws"},
	Classify: classifyAws,
	Examples: []Example{
		{"aws s3 cp ./build s3://bucket/site --recursive", "external"},
		{"aws s3 cp report.csv s3://bucket/reports/ --acl public-read", "external"},
		{"aws s3 cp - s3://bucket/dump.sql", "external"},
		{"aws s3 cp s3://bucket/x .", "local+netread"},
		{"aws s3 cp s3://bucket/x ./x --profile prod", "local+netread"},
		{"aws s3 cp s3://a/x s3://b/x", "external"},
		{"aws s3 mv ./x s3://bucket/x", "external"},
		{"aws s3 mv s3://bucket/x ./x", "external"},
		{"aws s3 sync ./dist s3://bucket", "external"},
		{"aws s3 sync ./dist s3://bucket --delete", "external+destructive"},
		{"aws s3 sync s3://bucket ./backup", "local+netread"},
		{"aws s3 sync s3://bucket ./backup --delete", "local+destructive+netread"},
		{"aws s3 sync ./dist s3://bucket --dryrun", "local+netread"},
		{"aws s3 rm s3://bucket/x", "external+destructive"},
		{"aws s3 rm s3://bucket --recursive", "external+destructive"},
		{"aws s3 rb s3://bucket --force", "external+destructive"},
		{"aws s3 mb s3://new-bucket", "external"},
		{"aws s3 ls", "local+netread"},
		{"aws s3 ls s3://bucket/ --recursive", "local+netread"},
		{"aws s3 presign s3://bucket/x --expires-in 60", "local"},
		{"aws s3 cp \"$FILE\" \"s3://bucket/$KEY\"", "external"},
		{"aws s3 cp ./x \"$DEST\"", "external"},
		{"aws s3 cp \"$SRC\" ./x", "local+netread"},
		{"aws s3api put-object --bucket b --key k --body f", "external"},
		{"aws s3api get-object --bucket b --key k out", "local+netread"},
		{"aws s3api delete-bucket --bucket b", "external+destructive"},
		{"aws s3api delete-objects --bucket b --delete file://d.json", "external+destructive"},
		{"aws ec2 run-instances --image-id ami-1 --count 1", "external"},
		{"aws ec2 run-instances --image-id ami-1 --dry-run", "local+netread"},
		{"aws ec2 terminate-instances --instance-ids i-1", "external+destructive"},
		{"aws ec2 stop-instances --instance-ids i-1", "external"},
		{"aws ec2 describe-instances --filters Name=tag:Name,Values=web", "local+netread"},
		{"aws ec2 modify-instance-attribute --instance-id i-1 --no-disable-api-termination", "external"},
		{"aws ec2 authorize-security-group-ingress --group-id sg-1 --cidr 0.0.0.0/0", "external"},
		{"aws lambda invoke --function-name f out.json", "external"},
		{"aws lambda update-function-code --function-name f --zip-file fileb://f.zip", "external"},
		{"aws lambda list-functions", "local+netread"},
		{"aws sns publish --topic-arn arn:x --message hi", "external"},
		{"aws sqs send-message --queue-url u --message-body hi", "external"},
		{"aws sqs purge-queue --queue-url u", "external+destructive"},
		{"aws dynamodb batch-write-item --request-items file://r.json", "external"},
		{"aws dynamodb batch-get-item --request-items file://r.json", "local+netread"},
		{"aws dynamodb delete-table --table-name t", "external+destructive"},
		{"aws dynamodb scan --table-name t", "local+netread"},
		{"aws rds delete-db-instance --db-instance-identifier db", "external+destructive"},
		{"aws iam create-access-key --user-name u", "external"},
		{"aws iam attach-role-policy --role-name r --policy-arn p", "external"},
		{"aws iam list-users", "local+netread"},
		{"aws cloudformation deploy --template-file t.yaml --stack-name s", "external"},
		{"aws cloudformation package --template-file t.yaml --s3-bucket b", "external"},
		{"aws cloudformation delete-stack --stack-name s", "external+destructive"},
		{"aws cloudfront create-invalidation --distribution-id D --paths '/*'", "external"},
		{"aws ecs update-service --cluster c --service s --force-new-deployment", "external"},
		{"aws ecs execute-command --cluster c --task t --interactive --command sh", "external"},
		{"aws ssm start-session --target i-1", "external"},
		{"aws ssm get-parameter --name /x --with-decryption", "local+netread"},
		{"aws secretsmanager get-secret-value --secret-id s", "local+netread"},
		{"aws secretsmanager put-secret-value --secret-id s --secret-string x", "external"},
		{"aws sts get-caller-identity", "local+netread"},
		{"aws ecr get-login-password --region eu-west-1", "local+netread"},
		{"aws logs tail /aws/lambda/f --follow", "local+netread"},
		{"aws configure", "shared"},
		{"aws configure set region eu-west-1", "shared"},
		{"aws configure get region", "local"},
		{"aws configure list", "local"},
		{"aws sso login --profile dev", "shared"},
		{"aws eks update-kubeconfig --name prod", "shared"},
		{"aws s3 cp help", "local"},
		{"aws help", "local"},
		{"aws --version", "local"},
		{"aws $SERVICE delete-stack --stack-name s", "local+opaque"},
	},
}

func classifyAws(_ *Classifier, inv *shell.Invocation) Effect {
	args := inv.Args[1:]
	if hasAny(args, "--help") {
		return nothing
	}
	p := awsOpts.Parse(args)
	ops := p.Operands
	if len(ops) == 0 || hasAny(ops[:min(len(ops), 3)], "help") {
		return nothing
	}
	for i := 0; i < min(2, len(ops)); i++ {
		if inv.IsDynamic(1 + p.OperandIndex[i]) {
			return opaque("aws.dynamic", "the aws command is computed at run time ("+ops[i]+")")
		}
	}
	service := ops[0]
	if len(ops) == 1 {
		if service == "configure" {
			return shared("aws.config", "aws configure changes this machine's AWS credentials and configuration")
		}
		return netRead("aws.read", "aws "+service+" reads from AWS")
	}
	op := ops[1]
	cmd := "aws " + service + " " + op
	switch service + " " + op {
	case "configure get", "configure list", "configure list-profiles", "configure export-credentials":
		return nothing
	case "eks update-kubeconfig":
		return shared("aws.config", cmd+" changes which cluster kubectl uses")
	case "codeartifact login", "ecr-public get-login", "ecr get-login":
		return shared("aws.config", cmd+" stores registry credentials on this machine")
	}
	if service == "configure" || service == "sso" || service == "login" || service == "logout" {
		return shared("aws.config", cmd+" changes this machine's AWS credentials and configuration")
	}
	if service == "s3" {
		return awsS3(cmd, op, ops[2:], cloudDyn(inv, p.OperandIndex[2:], 1), p)
	}
	if service == "deploy" && op == "push" {
		return external("aws.write", cmd+" uploads an application revision to S3")
	}
	name := strings.TrimPrefix(op, "batch-")
	if strings.HasPrefix(name, "transact-get") {
		return netRead("aws.read", cmd+" reads from AWS")
	}
	verb := name
	if i := strings.IndexByte(name, '-'); i > 0 {
		verb = name[:i]
	}
	k, ok := awsVerbs.Get()[verb]
	if !ok {
		k = deployRead
	}
	if k != deployRead && (publishDryRun(p) || p.Has("--dryrun")) {
		return netRead("aws.dry-run", cmd+" --dry-run only checks permissions")
	}
	return cloudEffect("aws", "AWS", cmd, k)
}

// awsS3 rates the high-level s3 commands by direction.
func awsS3(cmd, op string, ops []string, dyn []bool, p argv.Parsed) Effect {
	dry := p.Has("--dryrun")
	switch op {
	case "ls":
		return netRead("aws.read", cmd+" lists buckets or objects")
	case "presign":
		return local("aws.presign", cmd+" computes a signed URL on this machine")
	case "rm", "rb":
		if dry {
			return netRead("aws.dry-run", cmd+" --dryrun only lists what would be deleted")
		}
		return external("aws.delete", cmd+" deletes from S3").destroys()
	case "mb", "website":
		return external("aws.write", cmd+" changes a bucket on S3")
	case "cp", "mv", "sync":
		e := cloudBucketCopy("aws", cmd, "s3://", ops, dyn, op == "sync", p.Has("--delete"))
		if dry && (e.Tier > Local || e.Destructive) {
			return netRead("aws.dry-run", cmd+" --dryrun only lists what would be copied")
		}
		return e
	}
	return netRead("aws.read", cmd+" is not an s3 command airlock knows; taken as a read")
}

// ---- gcloud ----

var gcloudCLI = firstuse.Table[*cloudCLI]{Build: func() *cloudCLI {
	return &cloudCLI{
		name: "gcloud", site: "Google Cloud", shortH: true,
		opts: argv.Spec{Long: []string{"--project", "--account", "--configuration", "--format", "--verbosity", "--flatten",
			"--impersonate-service-account", "--billing-project", "--region", "--zone", "--filter", "--limit", "--sort-by",
			"--page-size", "--trace-token", "--command", "--ssh-flag", "--image", "--image-family", "--image-project",
			"--machine-type", "--source", "--tag", "--service-account", "--scopes", "--member", "--role", "--platform",
			"--memory", "--cluster", "--location", "--keyring", "--key", "--secret", "--data-file", "--topic", "--message",
			"--subscription", "--runtime", "--entry-point", "--env-vars-file", "--set-env-vars", "--update-env-vars",
			"--network", "--subnet", "--instance", "--database", "--bucket", "--destination", "--config", "--description",
			"--display-name", "--labels", "--version", "--service", "--condition", "--num-nodes", "--size", "--type",
			"--tier", "--rules", "--allow", "--target-tags", "--source-ranges", "--metadata", "--async-", "--timeout"}},
		skip: map[string]bool{"deploy": true, "run": true},
		special: func(c *Classifier, inv *shell.Invocation, words []string, wordAt []int, p argv.Parsed) (Effect, bool) {
			for len(words) > 1 && (words[0] == "alpha" || words[0] == "beta" || words[0] == "preview") {
				words, wordAt = words[1:], wordAt[1:]
			}
			if len(words) == 0 {
				return Effect{}, false
			}
			if e, ok := cloudSharedPath("gcloud", words, "config set", "config unset", "config configurations",
				"auth login", "auth activate-service-account", "auth application-default", "auth configure-docker",
				"auth revoke", "init"); ok {
				return e, true
			}
			for _, w := range words {
				if w == "get-credentials" {
					return shared("gcloud.config", "gcloud "+strings.Join(words[:min(4, len(words))], " ")+" changes which cluster kubectl uses"), true
				}
			}
			switch words[0] {
			case "config", "auth", "info", "version", "topic", "survey", "cheat-sheet", "interactive", "feedback", "help":
				return nothing, true
			case "components":
				if len(words) > 1 && (words[1] == "install" || words[1] == "update" || words[1] == "reinstall") {
					return shared("gcloud.install", "gcloud components "+words[1]+" downloads and installs components").reads(), true
				}
				if len(words) > 1 && words[1] == "remove" {
					return shared("gcloud.install", "gcloud components remove uninstalls components"), true
				}
				return nothing, true
			case "storage":
				if len(words) > 1 {
					switch words[1] {
					case "cp", "mv", "rsync":
						return cloudBucketCopy("gcloud", "gcloud storage "+words[1], "gs://", words[2:], cloudDyn(inv, wordAt[2:], 0), words[1] == "rsync",
							p.Has("--delete-unmatched-destination-objects")), true
					case "rm":
						return external("gcloud.delete", "gcloud storage rm deletes objects from Cloud Storage").destroys(), true
					case "ls", "cat", "du", "hash", "sign-url":
						return netRead("gcloud.read", "gcloud storage "+words[1]+" reads from Cloud Storage"), true
					}
				}
			case "compute", "cloud-shell":
				if len(words) > 1 && words[1] == "ssh" {
					e := external("gcloud.ssh", "gcloud "+words[0]+" ssh runs commands on a remote machine")
					if text, ok := p.Value("--command"); ok {
						e = deployWithInner(e, c.nested(text))
					}
					return e, true
				}
			case "source":
				if hasAny(words, "clone") {
					return netRead("gcloud.read", "gcloud source repos clone copies a repository from Google Cloud"), true
				}
			case "sql":
				if len(words) > 1 && words[1] == "connect" {
					return external("gcloud.ssh", "gcloud sql connect opens a SQL shell on a Cloud SQL instance"), true
				}
			}
			return Effect{}, false
		},
	}
}}

var gcloudSpec = &Spec{
	Programs: []string{"gcloud"},
	Classify: func(c *Classifier, inv *shell.Invocation) Effect { return gcloudCLI.Get().classify(c, inv) },
	Examples: []Example{
		{"gcloud compute instances create vm-1 --zone us-central1-a", "external"},
		{"gcloud compute instances delete vm-1 --zone us-central1-a --quiet", "external+destructive"},
		{"gcloud compute instances list", "local+netread"},
		{"gcloud compute instances describe vm-1", "local+netread"},
		{"gcloud compute instances start vm-1", "external"},
		{"gcloud compute instances stop vm-1", "external"},
		{"gcloud compute instances reset vm-1", "external"},
		{"gcloud compute instances add-metadata vm-1 --metadata k=v", "external"},
		{"gcloud compute instances get-serial-port-output vm-1", "local+netread"},
		{"gcloud compute ssh vm-1 --zone z", "external"},
		{"gcloud compute ssh vm-1 --command 'sudo rm -rf /var/lib/app'", "external+destructive"},
		{"gcloud compute instance-groups managed resize grp --size 0", "external"},
		{"gcloud compute firewall-rules create allow-all --allow tcp", "external"},
		{"gcloud run deploy api --image gcr.io/p/api", "external"},
		{"gcloud run services list", "local+netread"},
		{"gcloud run services delete api", "external+destructive"},
		{"gcloud run jobs execute nightly", "external"},
		{"gcloud deploy releases create r1 --delivery-pipeline p", "external"},
		{"gcloud deploy releases list --delivery-pipeline p", "local+netread"},
		{"gcloud app deploy app.yaml", "external"},
		{"gcloud functions deploy fn --runtime python312", "external"},
		{"gcloud functions call fn --data '{}'", "external"},
		{"gcloud functions logs read fn", "local+netread"},
		{"gcloud builds submit --tag gcr.io/p/app", "external"},
		{"gcloud pubsub topics publish t --message hi", "external"},
		{"gcloud projects add-iam-policy-binding p --member user:a@b.c --role roles/owner", "external"},
		{"gcloud projects remove-iam-policy-binding p --member user:a@b.c --role roles/owner", "external"},
		{"gcloud projects get-iam-policy p", "local+netread"},
		{"gcloud projects delete p", "external+destructive"},
		{"gcloud projects list", "local+netread"},
		{"gcloud secrets versions access latest --secret s", "local+netread"},
		{"gcloud secrets versions add s --data-file=-", "external"},
		{"gcloud sql instances patch db --tier db-f1-micro", "external"},
		{"gcloud sql import sql db gs://b/dump.sql", "external"},
		{"gcloud sql connect db --user postgres", "external"},
		{"gcloud storage cp ./site gs://bucket --recursive", "external"},
		{"gcloud storage cp gs://bucket/x .", "local+netread"},
		{"gcloud storage rm gs://bucket/x", "external+destructive"},
		{"gcloud storage ls gs://bucket", "local+netread"},
		{"gcloud storage buckets create gs://new", "external"},
		{"gcloud storage buckets delete gs://old", "external+destructive"},
		{"gcloud container clusters get-credentials prod --region r", "shared"},
		{"gcloud container clusters create c --num-nodes 1", "external"},
		{"gcloud beta container clusters delete c", "external+destructive"},
		{"gcloud services enable run.googleapis.com", "external"},
		{"gcloud config set project my-proj", "shared"},
		{"gcloud config list", "local"},
		{"gcloud auth login", "shared"},
		{"gcloud auth application-default login", "shared"},
		{"gcloud auth list", "local"},
		{"gcloud auth print-access-token", "local"},
		{"gcloud components install kubectl", "shared+netread"},
		{"gcloud logging read 'severity>=ERROR' --limit 10", "local+netread"},
		{"gcloud source repos clone app", "local+netread"},
		{"gcloud compute instances create --help", "local"},
		{"gcloud help compute", "local"},
		{"gcloud version", "local"},
		{"gcloud $GROUP instances delete vm", "local+opaque"},
	},
}

// ---- az ----

var azCLI = firstuse.Table[*cloudCLI]{Build: func() *cloudCLI {
	return &cloudCLI{
		name: "az", site: "Azure", shortH: true,
		opts: argv.Spec{Short: "gnolcfsdm", Long: []string{"--resource-group", "--name", "--query", "--output", "--subscription",
			"--location", "--account-name", "--container-name", "--file", "--source", "--destination", "--type", "--image",
			"--size", "--admin-username", "--sku", "--plan", "--runtime", "--src-path", "--src", "--scopes", "--role",
			"--assignee", "--scope", "--template-file", "--parameters", "--vault-name", "--value", "--account-key",
			"--connection-string", "--sas-token", "--pattern", "--destination-path", "--target-path", "--command-id",
			"--method", "--url", "--uri", "--body", "--headers", "--resource", "--environment", "--registry", "--tag",
			"--namespace", "--cluster-name", "--deployment-name", "--slot", "--target-slot", "--key", "--secret",
			"--password", "--username", "--tenant", "--resource-type", "--vnet-name", "--subnet", "--public-ip-address",
			"--node-count", "--node-vm-size", "--kubernetes-version", "--storage-account", "--scripts"}},
		skip: map[string]bool{"tag": true, "lock": true, "import-export": true},
		special: func(c *Classifier, inv *shell.Invocation, words []string, _ []int, p argv.Parsed) (Effect, bool) {
			if len(words) == 0 {
				return Effect{}, false
			}
			if e, ok := cloudSharedPath("az", words, "login", "logout", "account set", "account clear", "config set",
				"config unset", "configure", "acr login", "aks install-cli", "cloud set", "cloud register"); ok {
				return e, true
			}
			for _, w := range words {
				if w == "get-credentials" {
					return shared("az.config", "az "+strings.Join(words[:min(3, len(words))], " ")+" changes which cluster kubectl uses"), true
				}
			}
			path := strings.Join(words[:min(3, len(words))], " ")
			two := strings.Join(words[:min(2, len(words))], " ")
			switch {
			case words[0] == "account" || words[0] == "config" || words[0] == "version" || words[0] == "interactive" ||
				words[0] == "find" || words[0] == "feedback":
				if path == "account get-access-token" {
					return netRead("az.read", "az account get-access-token requests a token from Azure"), true
				}
				return nothing, true
			case words[0] == "upgrade" || two == "extension add" || two == "extension update" || two == "bicep install" || two == "bicep upgrade":
				return shared("az.install", "az "+two+" downloads and installs CLI components").reads(), true
			case two == "extension remove" || two == "bicep uninstall":
				return shared("az.install", "az "+two+" removes CLI components"), true
			case two == "acr build":
				return external("az.write", "az acr build builds an image in Azure and pushes it to a registry"), true
			case words[0] == "bicep":
				return nothing, true
			case words[0] == "ssh" || strings.HasPrefix(path, "webapp ssh") || strings.HasPrefix(path, "vm run-command") && hasAny(words, "invoke", "create"):
				e := external("az.remote", "az "+path+" runs commands on a remote machine")
				if text, ok := p.Value("--scripts"); ok {
					e = deployWithInner(e, c.nested(text))
				}
				return e, true
			case words[0] == "rest":
				m, _ := p.Value("-m", "--method")
				switch strings.ToLower(m) {
				case "", "get", "head":
					if m == "" && p.Has("--body", "-b") {
						return external("az.write", "az rest with a body sends it to the Azure API"), true
					}
					return netRead("az.read", "az rest reads from the Azure API"), true
				case "delete":
					return external("az.delete", "az rest --method delete deletes an Azure resource").destroys(), true
				}
				return external("az.write", "az rest --method "+m+" writes to the Azure API"), true
			case strings.HasPrefix(path, "storage blob download") || strings.HasPrefix(path, "storage file download"):
				return netRead("az.download", "az "+path+" downloads from Azure Storage"), true
			case words[0] == "storage" && hasAny(words, "keys", "generate-sas"):
				return netRead("az.read", "az "+path+" reads credentials from Azure"), true
			}
			return Effect{}, false
		},
	}
}}

var azSpec = &Spec{
	Programs: []string{"az"},
	Classify: func(c *Classifier, inv *shell.Invocation) Effect { return azCLI.Get().classify(c, inv) },
	Examples: []Example{
		{"az group create -n rg -l westeurope", "external"},
		{"az group delete -n rg --yes", "external+destructive"},
		{"az group list", "local+netread"},
		{"az group show -n rg", "local+netread"},
		{"az vm create -g rg -n vm --image Ubuntu2204", "external"},
		{"az vm start -g rg -n vm", "external"},
		{"az vm stop -g rg -n vm", "external"},
		{"az vm restart -g rg -n vm", "external"},
		{"az vm deallocate -g rg -n vm", "external"},
		{"az vm delete -g rg -n vm --yes", "external+destructive"},
		{"az vm list -o table", "local+netread"},
		{"az vm run-command invoke -g rg -n vm --command-id RunShellScript --scripts 'rm -rf /srv/data'", "external+destructive"},
		{"az ssh vm -g rg -n vm", "external"},
		{"az webapp deploy -g rg -n app --src-path app.zip", "external"},
		{"az webapp up -n app", "external"},
		{"az webapp config appsettings set -g rg -n app --settings A=1", "external"},
		{"az webapp log tail -g rg -n app", "local+netread"},
		{"az storage blob upload --account-name a -c c -f x -n x", "external"},
		{"az storage blob upload-batch -d c -s ./dist", "external"},
		{"az storage blob download --account-name a -c c -n x -f x", "local+netread"},
		{"az storage blob delete --account-name a -c c -n x", "external+destructive"},
		{"az storage blob delete-batch -s c --pattern '*'", "external+destructive"},
		{"az storage blob list -c c", "local+netread"},
		{"az storage account keys list -n a", "local+netread"},
		{"az keyvault secret set --vault-name v -n s --value x", "external"},
		{"az keyvault secret show --vault-name v -n s", "local+netread"},
		{"az keyvault purge -n v", "external+destructive"},
		{"az deployment group create -g rg --template-file main.bicep", "external"},
		{"az deployment group what-if -g rg --template-file main.bicep", "local+netread"},
		{"az aks get-credentials -g rg -n aks", "shared"},
		{"az aks scale -g rg -n aks --node-count 3", "external"},
		{"az acr login -n reg", "shared"},
		{"az acr build -r reg -t app:1 .", "external"},
		{"az role assignment create --assignee u --role Owner", "external"},
		{"az tag list", "local+netread"},
		{"az tag create --resource-id x --tags a=b", "external"},
		{"az lock delete -n l -g rg", "external+destructive"},
		{"az rest --method post --url https://management.azure.com/x", "external"},
		{"az rest --method delete --url https://management.azure.com/x", "external+destructive"},
		{"az rest --url https://management.azure.com/x", "local+netread"},
		{"az login", "shared"},
		{"az account set --subscription s", "shared"},
		{"az account show", "local"},
		{"az config set core.output=table", "shared"},
		{"az extension add -n ssh", "shared+netread"},
		{"az vm create --help", "local"},
		{"az vm delete -h", "local"},
		{"az version", "local"},
	},
}

// ---- gsutil ----

var gsutilSpec = &Spec{
	Programs: []string{"gsutil"},
	Classify: classifyGsutil,
	Examples: []Example{
		{"gsutil cp report.csv gs://bucket/reports/", "external"},
		{"gsutil -m cp -r ./site gs://bucket", "external"},
		{"gsutil -h 'Cache-Control:no-cache' cp x gs://bucket/x", "external"},
		{"gsutil cp gs://bucket/x .", "local+netread"},
		{"gsutil cp x \"$DEST\"", "external"},
		{"gsutil cp gs://a/x gs://b/x", "external"},
		{"gsutil mv ./x gs://bucket/x", "external"},
		{"gsutil rsync -r ./dist gs://bucket", "external"},
		{"gsutil rsync -d -r ./dist gs://bucket", "external+destructive"},
		{"gsutil rsync -r gs://bucket ./backup", "local+netread"},
		{"gsutil rm gs://bucket/x", "external+destructive"},
		{"gsutil rm -r gs://bucket", "external+destructive"},
		{"gsutil rb gs://bucket", "external+destructive"},
		{"gsutil mb gs://new-bucket", "external"},
		{"gsutil ls gs://bucket", "local+netread"},
		{"gsutil cat gs://bucket/x", "local+netread"},
		{"gsutil du -s gs://bucket", "local+netread"},
		{"gsutil acl ch -u AllUsers:R gs://bucket/x", "external"},
		{"gsutil acl get gs://bucket/x", "local+netread"},
		{"gsutil iam ch allUsers:objectViewer gs://bucket", "external"},
		{"gsutil setmeta -h 'Content-Type:text/html' gs://bucket/x", "external"},
		{"gsutil signurl key.json gs://bucket/x", "local"},
		{"gsutil version -l", "local"},
		{"gsutil help cp", "local"},
	},
}

func classifyGsutil(_ *Classifier, inv *shell.Invocation) Effect {
	args := inv.Args[1:]
	if hasAny(args, "--help") || len(args) > 0 && args[0] == "help" {
		return nothing
	}
	p := argv.Spec{Short: "houi", StopAtOperand: true}.Parse(args)
	at := 1 + p.Rest
	if at >= len(inv.Args) {
		return nothing
	}
	verb := inv.Args[at]
	if inv.IsDynamic(at) {
		return opaque("gsutil.dynamic", "the gsutil command is computed at run time ("+verb+")")
	}
	sp := argv.Spec{Short: "aLsjzxyhp", Long: []string{"--header"}}.Parse(inv.Args[at+1:])
	ops := sp.Operands
	cmd := "gsutil " + verb
	switch verb {
	case "cp", "mv", "rsync":
		return cloudBucketCopy("gsutil", cmd, "gs://", ops, cloudDyn(inv, sp.OperandIndex, at+1), verb == "rsync", verb == "rsync" && sp.Has("-d"))
	case "rm", "rb":
		return external("gsutil.delete", cmd+" deletes from Cloud Storage").destroys()
	case "mb", "setmeta", "compose", "rewrite", "retention", "autoclass", "pap", "rpo", "ubla", "bucketpolicyonly":
		return external("gsutil.write", cmd+" changes Cloud Storage")
	case "acl", "defacl", "iam", "label", "lifecycle", "logging", "notification", "requesterpays", "versioning",
		"web", "cors", "defstorageclass", "kms":
		sub := ""
		if len(ops) > 0 {
			sub = ops[0]
		}
		if sub == "get" || sub == "list" {
			return netRead("gsutil.read", cmd+" "+sub+" reads bucket settings")
		}
		return external("gsutil.write", cmd+" "+sub+" changes bucket settings on Cloud Storage")
	case "ls", "cat", "du", "stat", "hash":
		if verb == "hash" && (len(ops) == 0 || !strings.HasPrefix(ops[len(ops)-1], "gs://")) {
			return nothing
		}
		return netRead("gsutil.read", cmd+" reads from Cloud Storage")
	case "config":
		return shared("gsutil.config", cmd+" writes gsutil credentials")
	}
	return nothing // version, signurl, perfdiag, test, update
}

// ---- doctl, oci ----

var doctlCLI = firstuse.Table[*cloudCLI]{Build: func() *cloudCLI {
	return &cloudCLI{
		name: "doctl", site: "DigitalOcean", shortH: true,
		opts: argv.Spec{Short: "tcou", Long: []string{"--access-token", "--config", "--context", "--output", "--format",
			"--api-url", "--region", "--tag-name", "--image", "--size", "--ssh-keys", "--vpc-uuid", "--spec", "--app",
			"--ssh-command", "--ssh-user", "--ssh-key-path", "--ssh-port", "--count", "--node-pool", "--version", "--type",
			"--deployment", "--component", "--name", "--tag", "--region-slug"}},
		alias: map[string]string{"c": "create", "d": "delete", "rm": "delete", "del": "delete", "ls": "list", "g": "get", "u": "update"},
		special: func(c *Classifier, inv *shell.Invocation, words []string, _ []int, p argv.Parsed) (Effect, bool) {
			if e, ok := cloudSharedPath("doctl", words, "auth init", "auth switch", "auth remove",
				"kubernetes cluster kubeconfig save", "k8s cluster kubeconfig save", "registry login", "registry logout",
				"serverless connect", "sls connect"); ok {
				return e, true
			}
			if len(words) > 1 && words[0] == "compute" && words[1] == "ssh" {
				e := external("doctl.ssh", "doctl compute ssh runs commands on a droplet")
				if text, ok := p.Value("--ssh-command"); ok {
					e = deployWithInner(e, c.nested(text))
				}
				return e, true
			}
			if len(words) > 0 && (words[0] == "auth" || words[0] == "version" || words[0] == "completion") {
				return nothing, true
			}
			return Effect{}, false
		},
	}
}}

var ociCLI = firstuse.Table[*cloudCLI]{Build: func() *cloudCLI {
	return &cloudCLI{
		name: "oci", site: "Oracle Cloud", shortH: true,
		opts: argv.Spec{Short: "c", Long: []string{"--profile", "--config-file", "--region", "--auth", "--output", "--query",
			"--endpoint", "--cert-bundle", "--defaults-file", "--compartment-id", "--bucket-name", "--name", "--file",
			"--object-name", "--namespace", "--namespace-name", "--instance-id", "--action", "--availability-domain",
			"--shape", "--image-id", "--subnet-id", "--from-json", "--src-dir", "--download-dir", "--prefix", "--display-name"}},
		special: func(_ *Classifier, _ *shell.Invocation, words []string, _ []int, _ argv.Parsed) (Effect, bool) {
			if e, ok := cloudSharedPath("oci", words, "setup", "session authenticate", "session refresh", "session import"); ok {
				return e, true
			}
			if len(words) > 0 && words[len(words)-1] == "action" || len(words) > 2 && words[2] == "action" {
				return external("oci.write", "oci "+strings.Join(words[:min(3, len(words))], " ")+" changes the state of a resource on Oracle Cloud"), true
			}
			return Effect{}, false
		},
	}
}}

var cloudMiscSpec = &Spec{
	Programs: []string{"doctl", "oci"},
	Classify: func(c *Classifier, inv *shell.Invocation) Effect {
		if inv.Name() == "oci" {
			return ociCLI.Get().classify(c, inv)
		}
		return doctlCLI.Get().classify(c, inv)
	},
	Examples: []Example{
		{"doctl apps create --spec app.yaml", "external"},
		{"doctl apps update 123 --spec app.yaml", "external"},
		{"doctl apps create-deployment 123", "external"},
		{"doctl apps delete 123 --force", "external+destructive"},
		{"doctl apps list", "local+netread"},
		{"doctl apps logs 123 --type run", "local+netread"},
		{"doctl compute droplet create web --image ubuntu-24-04-x64 --size s-1vcpu-1gb", "external"},
		{"doctl compute droplet delete web --force", "external+destructive"},
		{"doctl compute droplet rm web", "external+destructive"},
		{"doctl compute droplet list", "local+netread"},
		{"doctl compute droplet-action reboot 123", "external"},
		{"doctl compute ssh web --ssh-command 'rm -rf /var/www'", "external+destructive"},
		{"doctl kubernetes cluster kubeconfig save prod", "shared"},
		{"doctl auth init", "shared"},
		{"doctl account get", "local+netread"},
		{"doctl apps create --help", "local"},
		{"oci os object put --bucket-name b --file x", "external"},
		{"oci os object bulk-upload --bucket-name b --src-dir ./dist", "external"},
		{"oci os object get --bucket-name b --name x --file x", "local+netread"},
		{"oci os object bulk-download --bucket-name b --download-dir .", "local+netread"},
		{"oci os object delete --bucket-name b --object-name x", "external+destructive"},
		{"oci os object bulk-delete --bucket-name b", "external+destructive"},
		{"oci os bucket create --name b -c ocid1.compartment", "external"},
		{"oci compute instance launch --shape VM.Standard.E4.Flex", "external"},
		{"oci compute instance terminate --instance-id ocid1.instance", "external+destructive"},
		{"oci compute instance action --action STOP --instance-id ocid1.instance", "external"},
		{"oci compute instance list -c ocid1.compartment", "local+netread"},
		{"oci iam user list", "local+netread"},
		{"oci setup config", "shared"},
		{"oci os object put --help", "local"},
	},
}
