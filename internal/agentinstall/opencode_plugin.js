// airlock-managed: written by "airlock install opencode"; "airlock uninstall opencode" removes it.
// OpenCode runs this before every tool call. It hands the call to airlock and refuses it
// (throws: the model sees the reason) unless airlock answered allow. A missing binary, a
// crash, an exit status, a timeout and an answer it cannot read all refuse: this hook
// fails closed, where an OpenCode plugin error would otherwise be the only guard.
import { spawnSync } from "node:child_process";

const AIRLOCK = __AIRLOCK__;
const ARGS = __ARGS__;
const TIMEOUT_MS = __TIMEOUT_MS__;

export const Airlock = async ({ directory, worktree }) => ({
  "tool.execute.before": async (input, output) => {
    const call = { event: "tool.execute.before", tool: input.tool, sessionID: input.sessionID, callID: input.callID,
                   args: output.args, directory: directory || worktree, worktree };
    let r;
    try {
      r = spawnSync(AIRLOCK, ARGS, { input: JSON.stringify(call), encoding: "utf8", timeout: TIMEOUT_MS, killSignal: "SIGKILL" });
    } catch (e) {
      throw new Error("airlock: refused: the hook could not run (" + e + "); run airlock doctor");
    }
    if (r.error) throw new Error("airlock: refused: the hook could not run (" + r.error.message + "); run airlock doctor");
    if (r.status !== 0) throw new Error("airlock: refused: the hook exited with status " + r.status + " " + String(r.stderr || "").trim());
    let out;
    try { out = JSON.parse(r.stdout); } catch (e) { throw new Error("airlock: refused: the hook's answer could not be read"); }
    if (out && out.decision === "allow") return;
    throw new Error(out && typeof out.reason === "string" && out.reason ? out.reason : "airlock: refused");
  },
});
