import * as vscode from "vscode";
import { permissionModes, type PermissionMode } from "../../shared/protocol";
import { Lifetime } from "../lifetime";
import type { AgentSession } from "../sessions/agent-session";
import type { SessionRegistry } from "../sessions/session-registry";
import { errorText } from "../../shared/error-text";

const key = "pi.permissionModes";
/** Sessions remembered per workspace: the newest this many. */
const limit = 200;

type Remembered = Record<string, PermissionMode>;

const isMode = (value: unknown): value is PermissionMode => permissionModes.includes(value as PermissionMode);

/**
 * Each session's permission mode outlives its agent: remembered per session file (workspace
 * state), and given back when the session is opened again (Resume, a session from the list,
 * after a window reload). Full auto comes back only in a trusted workspace.
 */
export function rememberPermissionModes(sessions: SessionRegistry, memento: vscode.Memento, log: vscode.LogOutputChannel): vscode.Disposable {
  const lifetime = new Lifetime();
  const read = (): Remembered => {
    const stored = memento.get<unknown>(key);
    if (!stored || typeof stored !== "object") return {};
    return Object.fromEntries(Object.entries(stored).filter(([, mode]) => isMode(mode))) as Remembered;
  };
  const remember = (file: string, mode: PermissionMode) => {
    const all = read();
    if (all[file] === mode) return;
    delete all[file]; // re-inserted last: the newest are kept
    all[file] = mode;
    const entries = Object.entries(all);
    void memento.update(key, Object.fromEntries(entries.slice(Math.max(0, entries.length - limit))));
  };

  /** Session files whose mode is being given back: what the agent says meanwhile is not theirs. */
  const restoring = new Set<string>();
  const follow = (session: AgentSession) => {
    const agent = session.supervisor.agent;
    lifetime.add(agent.onDidChange(() => {
      const state = agent.session;
      if (state?.sessionFile && !restoring.has(state.sessionFile) && state.permissionMode && agent.capabilities?.permissionModes) remember(state.sessionFile, state.permissionMode);
    }));
    lifetime.add(agent.onDidChangeSession(({ state }) => {
      const wanted = state.sessionFile ? read()[state.sessionFile] : undefined;
      const client = session.supervisor.client;
      if (!wanted || !client || wanted === state.permissionMode || !client.capabilities.permissionModes) return;
      if (wanted === "auto" && !vscode.workspace.isTrusted) return;
      const file = state.sessionFile!;
      restoring.add(file);
      void client
        .request("set_permission_mode", { mode: wanted })
        .then(
          () => log.info(`The session ${file} is back in its permission mode: ${wanted}`),
          (error: unknown) => log.warn(`Giving the session its permission mode back failed: ${errorText(error)}`),
        )
        .finally(() => {
          restoring.delete(file);
          void agent.refresh(client).catch(() => undefined); // the agent exiting: refreshed at its next start
        });
    }));
  };
  sessions.all.forEach(follow);
  lifetime.add(sessions.onDidAdd(follow));
  return lifetime;
}
