/**
 * A whole agent's own directory (pi: ~/.pi/agent) in its sandbox: writable, as it keeps its
 * sessions and logins there, but not what the next agent loads or trusts at its start. Those are
 * read-only where they exist; where they do not, they could be made from inside, and the next
 * agent (the bundled host, a process outside any sandbox) would load them: a global extension in
 * `extensions/`, `defaultProjectTrust` in settings.json, a decision in trust.json, a server's
 * command in mcp.json. So the folders are stubs while the agent runs (empty, read-only), and the
 * JSON files are made first as `{}` (nothing set, as when missing), then kept read-only.
 * Plain (no vscode): agent-sandbox.ts builds the policy from it.
 */
import * as fs from "node:fs";
import * as path from "node:path";

/** Read-only where they exist: prompts and models the next agent reads. */
const readOnlyFiles = ["models.json", "models.yml", "AGENTS.md", "SYSTEM.md", "APPEND_SYSTEM.md"];
/** What the next agent loads code from: stubs where missing. */
const codeFolders = ["extensions", "skills", "prompts", "themes"];
/** Settings where `{}` means what a missing file does: made so, then read-only. */
const settingsFiles = ["settings.json", "trust.json", "mcp.json", "keybindings.json"];

/**
 * The policy's part for the agent's directory; with `settingsDefaults`, makes the missing settings
 * files `{}` first (0600). Not for omp: it migrates a legacy settings.json of its own and would then
 * try to remove it; its missing files stay makeable (docs/trust-model.md).
 */
export function agentDirGuard(agentDir: string, settingsDefaults = true): { readOnlyPaths: string[]; uncreatableDirs: string[] } {
  for (const name of settingsDefaults ? settingsFiles : []) {
    try {
      fs.writeFileSync(path.join(agentDir, name), "{}\n", { flag: "wx", mode: 0o600 });
    } catch {
      // there already (kept read-only below), or the folder is not writable (nothing to guard then)
    }
  }
  return {
    readOnlyPaths: [...readOnlyFiles, ...settingsFiles].map((name) => path.join(agentDir, name)),
    uncreatableDirs: codeFolders.map((name) => path.join(agentDir, name)),
  };
}
