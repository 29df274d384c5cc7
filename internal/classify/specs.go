package classify

import "sync"

// specTable returns every spec, in the one order Specs reports them (the
// order the prompt's examples and the scanner's anchors are read in).
// It is the list of what classify knows about programs: a file defines
// its specs, and only this table puts them to use, so reading it answers
// "which programs does airlock rate?" and TestSpecTableComplete fails
// when a file defines a spec this table leaves out.
//
// It runs on the first lookup, not at start-up: the verb tables build
// maps, which cost allocation an allowed hook call may never need.
//
// The order is historical (it was the order of the files' init
// registrations); keep new specs at the end of their group so that the
// prompt's examples do not move.
func specTable() []*Spec {
	t := []*Spec{
		curlieSpec,
		interpTSSpec,
		applyPatchSpec,
		// Cloud providers.
		awsSpec, gcloudSpec, azSpec, gsutilSpec, cloudMiscSpec,
		containerSpec,
		// Deployment.
		deploySaaSSpec, deployStackSpec, kubectlSpec, helmSpec, terraformSpec, pulumiSpec, ansibleSpec, ansibleAdhocSpec,
		// Files, disks and the system.
		filesSpec, filesDiskSpec, filesPermSpec, filesAdminSpec, userSettingsSpec,
		// Forges and git.
		ghSpec, glabSpec,
		gitSpec,
		// HTTP and the network.
		curlSpec, wgetSpec, httpieSpec, netcatSpec, telnetSpec, opensslSpec, lookupSpec,
		lwpSpec, gnutlsSpec, getentSpec, resolveSpec, mqttSpec, loggerSpec, hurlSpec, tclSpec, // netchannels.go
		// Interpreters.
		interpPythonSpec, interpNodeSpec, interpDenoSpec, interpRubySpec, interpPerlSpec, interpPHPSpec, interpLuaSpec, interpRSpec, interpOsascriptSpec,
		// Mail.
		mailSpec, sendmailSpec, muttSpec, swaksSpec,
		osInstallSpec,
		// Package managers and publishing.
		npmSpec, pnpmSpec, yarnSpec, bunSpec, pipSpec, uvSpec, poetrySpec, goSpec, cargoSpec, gemSpec, bundleSpec, composerSpec, aptSpec, brewSpec, pyPublishSpec, mvnSpec, gradleSpec, dotnetSpec,
		socatSpec,
		// Databases.
		sqlSpec, sqlRedisSpec, sqlMongoSpec,
		systemSpec,
		// Remote shells and file transfer.
		sshSpec, scpSpec, sftpSpec, rsyncSpec, rcloneSpec, ftpSpec, lftpSpec, sshfsSpec, smbclientSpec,
		// Text interpreters read by classify's own readers.
		awkSpec, powerShellSpec,
	}
	// Verb tables: one program, a verb, an effect.
	t = append(t, registrySpecs()...)
	t = append(t, serviceSpecs()...)
	t = append(t, sqlRemoteSpec)
	t = append(t, vcsSpecs()...)
	// Issue 24's classes: HTTP clients, schedulers, nested agents.
	t = append(t, httpToolsSpec, textBrowserSpec, siegeSpec, rpcClientSpec, nestedAgentSpec, scheduleSpec)
	// FINDINGS-7: senders nobody else reads (senders.go).
	t = append(t, sendersSpec)
	return t
}

// buildSpecs is specTable, reached through a variable set by init: the
// specs' Classify functions classify nested shell text, which looks specs
// up, which reads the table, which names the specs. Go rejects that cycle
// among package variables; an init function is outside the variables'
// dependency analysis and assigning a function allocates nothing. It is
// the package's only init function (TestSpecTableComplete keeps it so).
var buildSpecs func() []*Spec

func init() {
	buildSpecs = specTable
	// The option table (optcmds.go) is built on first use for the same
	// reason: its scripts classify nested text, which reads it.
	optionRuns = sync.OnceValue(buildOptionTable)
}
