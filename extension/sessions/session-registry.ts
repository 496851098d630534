import * as vscode from "vscode";
import { closableNotice } from "../ui/closable-notice";
import { notificationText } from "../ui/plain-text";
import { ChatPanelSurface } from "../chat/chat-panel";
import type { ChatSurface } from "../chat/chat-surface";
import { AgentSession, type SessionServices, type SessionSpec } from "./agent-session";

export interface TabSessionOptions {
  cwd?: string;
  worktree?: { path: string; branch: string };
  /** Open this session file instead of a new session. */
  sessionFile?: string;
}

/** Activities in which closing a tab leaves the agent running. */
const busy = new Set(["running", "waiting", "starting"]);

/**
 * Every agent session of the window: the side panel's (always there) and those in editor tabs.
 * `active` is the one the user worked with last; commands without a session act on it.
 */
export class SessionRegistry implements vscode.Disposable {
  private readonly sessions: AgentSession[] = [];
  private readonly subscriptions = new Map<AgentSession, vscode.Disposable[]>();
  private readonly changeEmitter = new vscode.EventEmitter<void>();
  /** A session was added, removed, became the active one, or changed its activity or name. */
  readonly onDidChange = this.changeEmitter.event;
  private readonly addedEmitter = new vscode.EventEmitter<AgentSession>();
  readonly onDidAdd = this.addedEmitter.event;
  private counter = 0;
  private activeSession: AgentSession | undefined;
  readonly primary: AgentSession;

  constructor(
    private readonly services: SessionServices,
    sidebar: ChatSurface,
    private readonly extensionUri: vscode.Uri,
  ) {
    this.primary = this.add({ place: "sidebar", surface: sidebar, ordinal: ++this.counter });
    this.activeSession = this.primary;
  }

  get all(): readonly AgentSession[] {
    return this.sessions;
  }

  get active(): AgentSession {
    return this.activeSession && this.sessions.includes(this.activeSession) ? this.activeSession : this.primary;
  }

  get(id: string): AgentSession | undefined {
    return this.sessions.find((s) => s.id === id);
  }

  /** A new agent session in an editor tab; its agent starts when its chat is shown. */
  openInTab(options: TabSessionOptions = {}): AgentSession {
    const ordinal = ++this.counter;
    const surface = new ChatPanelSurface(this.extensionUri, this.services.log, `Pi: Session ${ordinal}`);
    const session = this.add({ place: "tab", surface, ordinal, ...options }, [surface]);
    const subs = this.subscriptions.get(session)!;
    subs.push(
      surface.onDidBecomeActive(() => this.setActive(session)),
      surface.onDidClose(() => this.tabClosed(session)),
      session.onDidChange(() => surface.setLabel(`Pi: ${session.label}`)),
    );
    this.setActive(session);
    surface.reveal(false);
    return session;
  }

  /** Stops a session's agent and forgets it; the side panel's session only stops. */
  async close(session: AgentSession): Promise<void> {
    if (session === this.primary) return session.supervisor.stop();
    await session.supervisor.stop();
    this.remove(session);
  }

  /** The side panel's session became the one the user works with. */
  focusPrimary(): void {
    this.setActive(this.primary);
  }

  /** The user worked with this session (in its chat): commands without a session act on it now. */
  setActive(session: AgentSession): void {
    if (this.activeSession === session) return;
    this.activeSession = session;
    this.changeEmitter.fire(); // views that follow the active session (the plan) look again
  }

  private add(spec: SessionSpec, owned: vscode.Disposable[] = []): AgentSession {
    const session = new AgentSession(`s${spec.ordinal}`, spec, this.services);
    this.sessions.push(session);
    this.subscriptions.set(session, [...owned, session.onDidChange(() => this.changeEmitter.fire())]);
    this.addedEmitter.fire(session);
    this.changeEmitter.fire();
    return session;
  }

  private remove(session: AgentSession): void {
    const index = this.sessions.indexOf(session);
    if (index < 0) return;
    this.sessions.splice(index, 1);
    session.dispose();
    for (const sub of this.subscriptions.get(session) ?? []) sub.dispose();
    this.subscriptions.delete(session);
    this.changeEmitter.fire();
  }

  /** Closing a tab does not kill a running agent unless the user says so. */
  private tabClosed(session: AgentSession): void {
    this.services.log.info(`The tab of ${session.label} closed while ${session.activity}`);
    if (!busy.has(session.activity)) {
      void this.close(session);
      return;
    }
    this.changeEmitter.fire();
    // Said while it is so: gone once its run ends, it is stopped, or its tab is back.
    const notice = closableNotice(`Pi: “${notificationText(session.label)}” keeps running in the background. Find it in the Pi sessions list.`, [
      { label: "Show", command: "pi.sessions.show", args: [session.id] },
      { label: "Stop", command: "pi.sessions.stop", args: [session.id] },
    ]);
    const inBackground = () => busy.has(session.activity) && this.sessions.includes(session) && !session.surface.visible;
    const check = () => !inBackground() && close();
    const watches = [session.onDidChange(check), session.surface.onDidChangeVisibility(check), this.onDidChange(check)];
    const close = () => {
      for (const watch of watches) watch.dispose();
      notice.dispose();
    };
  }

  async stopAll(): Promise<void> {
    await Promise.all(this.sessions.map((s) => s.supervisor.stop()));
  }

  dispose(): void {
    for (const session of [...this.sessions]) this.remove(session);
    this.changeEmitter.dispose();
    this.addedEmitter.dispose();
  }
}
