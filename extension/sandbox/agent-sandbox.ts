/**
 * The OS sandbox of what an agent runs (#30), decided at each start from the user's settings.
 * The bundled host sandboxes every process its tools start itself (`--sandbox`, see
 * agent-command.ts); pi and omp have no such option, so the whole agent process runs inside the
 * same filesystem boundary (bubblewrap around it; network open: it must reach its provider,
 * through the key gateway on loopback or directly). What the chat header says comes from here:
 * full access, or not sandboxed and why. Absent when sandboxed as usual.
 */
import * as fs from "node:fs";
import * as os from "node:os";
import * as path from "node:path";
import { CommandSandbox, probeSandbox, type SandboxProbe } from "../../shared/node/sandbox";
import { piAgentDir } from "../../shared/node/project-trust";
import { settings } from "../settings";
import { knownAgentOf } from "../acp/known-agents";
import { agentDirGuard } from "./agent-dir-guard";
import { launchFiles } from "./launch-files";
import type { AgentLaunch } from "../supervision/agent-command";

/** What the chat header shows about the sandbox: only what the user should know (full access, none). */
export interface SandboxNote {
  label: string;
  detail: string;
}

export interface SandboxedLaunch {
  launch: AgentLaunch;
  note?: SandboxNote;
  /** Where the whole agent may write besides its folder (pi/omp sandboxed whole: its own folders, the checkpoint store). */
  writableRoots?: readonly string[];
  /** Once the agent process has ended: the placeholders bwrap made are removed, the session's temp dir too. */
  dispose(): void;
}

const fullAccess = (who: string): SandboxNote => ({ label: "Full access", detail: `${who} with all your permissions: no sandbox (pi.sandbox.mode is full-access).` });

/** The agent's own directory (pi: ~/.pi/agent, omp: ~/.omp/agent, or PI_CODING_AGENT_DIR). */
function agentDirOf(launch: AgentLaunch): string {
  const home = launch.env.HOME || os.homedir();
  return launch.env.PI_CODING_AGENT_DIR ? piAgentDir(launch.env, home) : path.join(home, isOmp(launch) ? ".omp" : ".pi", "agent");
}


/**
 * Where the whole agent may write besides the workspace: its own directory (less the above), omp's
 * state folder (~/.omp: it writes there at start), and the checkpoint store.
 */
function agentWritableRoots(launch: AgentLaunch, agentDir: string, checkpointDir: string | undefined, more: readonly string[]): string[] {
  const home = launch.env.HOME || os.homedir();
  // An ACP agent writes its own state (sessions, logins, caches) in its own folders (known-agents.ts).
  const acpState = launch.protocol === "acp" ? (knownAgentOf(launch.command, launch.args)?.stateDirs ?? []).map((dir) => path.join(home, dir)) : [];
  const state = isOmp(launch) ? [path.join(home, ".omp")] : acpState;
  for (const dir of [path.join(agentDir, "sessions"), ...state]) fs.mkdirSync(dir, { recursive: true, mode: 0o700 });
  return [agentDir, ...state, ...(checkpointDir ? [checkpointDir] : []), ...more];
}

const isOmp = (launch: AgentLaunch): boolean => /\bomp\b/.test(launch.label) || launch.args.some((arg) => arg.includes("oh-my-pi"));

/** `moreWritable`: folders the agent must write in besides those (the editor bridge's handoff folder, where it deletes the file). */
export async function sandboxAgentLaunch(launch: AgentLaunch, checkpointDir: string | undefined, moreWritable: readonly string[] = []): Promise<SandboxedLaunch> {
  const mode = settings.sandboxMode;
  const unchanged = (note?: SandboxNote): SandboxedLaunch => ({ launch, ...(note ? { note } : {}), dispose: () => undefined });
  if (launch.bundled) {
    if (mode === "full-access") return unchanged(fullAccess("The agent's commands run"));
    const probe = await probeSandbox(launch.env);
    return unchanged(probe.ok ? undefined : { label: "Not sandboxed", detail: `Commands cannot be sandboxed here: ${probe.reason}. Every command is asked before it runs.` });
  }
  if (mode === "full-access") return unchanged(fullAccess(`${launch.label} runs`));
  if (launch.protocol === "acp" && !knownAgentOf(launch.command, launch.args)) return unchanged({ label: "Not sandboxed", detail: `${launch.label} runs with all your permissions and its own policy: an ACP agent whose state folders we do not know.` });
  if (!settings.sandboxOtherAgents) return unchanged({ label: "Not sandboxed", detail: `${launch.label} runs with all your permissions and its own policy (pi.sandbox.otherAgents is off).` });
  const probe: SandboxProbe = await probeSandbox(launch.env);
  if (!probe.ok) return unchanged({ label: "Not sandboxed", detail: `${launch.label} runs with all your permissions: ${probe.reason}.` });
  const agentDir = agentDirOf(launch);
  const home = launch.env.HOME || os.homedir();
  const writableRoots = agentWritableRoots(launch, agentDir, checkpointDir, moreWritable);
  const sandbox = new CommandSandbox(
    {
      mode, network: true, workspaceRoot: launch.cwd, writableRoots,
      // What it loads or trusts at its next start may not be changed nor made from inside (agent-dir-guard.ts); its sessions and logins stay writable.
      visibleSecrets: [".pi/agent/auth.json", ".pi/agent/models.json", ".pi/agent/mcp-auth.json"], readableRoots: [agentDir, home], ...agentDirGuard(agentDir, !isOmp(launch)),
      // omp locks its session files by binding an abstract datagram socket: refused, it saved no session.
      ...(isOmp(launch) ? { allowUnixDatagram: true } : {}),
    },
    launch.env,
    // It and everything it started end together (a job its bash left would go on writing after it stopped).
    { wholeAgent: true },
  );
  // Else bwrap's "execvp …: No such file or directory", or the agent's own "cannot find module".
  const unseen = probe.kind === "bwrap" ? launchFiles(launch).find((file) => sandbox.hides(file)) : undefined;
  if (unseen) {
    sandbox.dispose();
    throw new Error(
      `${launch.label} cannot run in the sandbox: ${unseen} is in a folder the sandbox replaces with its own (/tmp, the runtime dir), so the agent would not find it there. ` +
        "Install the agent in another folder (npm install -g, or a folder in your home), or set pi.sandbox.otherAgents to false to run it without the sandbox.",
    );
  }
  const wrapped = sandbox.wrap(probe, [launch.command, ...launch.args], launch.cwd);
  return {
    launch: { ...launch, command: wrapped.file, args: wrapped.args },
    writableRoots,
    dispose: () => {
      wrapped.release();
      sandbox.dispose();
    },
  };
}
