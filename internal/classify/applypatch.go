package classify

import "github.com/airlock-dev/airlock/internal/shell"

// This file rates apply_patch written as shell text. Codex (and agents
// that copy it) intercept `apply_patch <<'EOF' … EOF` and apply the patch
// in their own process: the files it adds, changes, deletes and moves
// never show in the shell text as a redirection or a program airlock
// reads. Judged as an unknown local program, the patch would write any
// file unseen (self-protection included), so every run of it is opaque,
// whatever feeds it: the agent is told to send the patch as its
// apply_patch tool, whose files airlock reads.

// applyPatchSpec rates the agents' patch tools.
var applyPatchSpec = &Spec{
	Programs: []string{"apply_patch", "applypatch"},
	Classify: classifyApplyPatch,
	Examples: []Example{
		{"apply_patch <<'EOF'\n*** Begin Patch\n*** Add File: notes.txt\n+hi\n*** End Patch\nEOF", "local+opaque"},
		{"cd sub && applypatch \"*** Begin Patch\n*** Delete File: a.txt\n*** End Patch\"", "local+opaque"},
		{"apply_patch < change.patch", "local+opaque"},
		{"echo apply_patch", "local"},
	},
}

// classifyApplyPatch refuses to guess what a patch in shell text writes.
func classifyApplyPatch(_ *Classifier, inv *shell.Invocation) Effect {
	return opaque("apply_patch.shell", inv.Name()+" applies a patch inside the agent, whose files airlock does not read in shell text: send the patch with the agent's apply_patch tool instead")
}
