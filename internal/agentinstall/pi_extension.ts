// airlock-managed: written by "airlock install pi"; "airlock uninstall pi" removes it.
// Pi runs this before every tool call. It hands the call to airlock and blocks it (the model
// sees the reason) unless airlock answered allow. A missing binary, a crash, an exit status, a
// timeout and an answer it cannot read throw, and Pi blocks a tool call whose handler throws:
// this hook fails closed.
import { spawnSync } from "node:child_process";

const AIRLOCK = __AIRLOCK__;
const ARGS = __ARGS__;
const TIMEOUT_MS = __TIMEOUT_MS__;

export default function (pi) {
  pi.on("tool_call", async (event, ctx) => {
    let session = "";
    try { session = String(ctx.sessionManager.getSessionId() || ""); } catch (e) { session = ""; }
    const call = { event: "tool_call", toolName: event.toolName, toolCallId: event.toolCallId, input: event.input,
                   cwd: ctx.cwd, sessionId: session };
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
    if (out && out.decision === "allow") return undefined;
    if (out && out.decision === "deny") {
      return { block: true, reason: typeof out.reason === "string" && out.reason ? out.reason : "airlock: refused" };
    }
    throw new Error("airlock: refused: the hook answered neither allow nor deny");
  });
}
