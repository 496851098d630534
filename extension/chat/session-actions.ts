import type { Event } from "vscode";
import type { PermissionMode, TodoPhase } from "../../shared/protocol";
import type { ChangesSummary } from "../../shared/webview-protocol";
import type { SessionCommand } from "../../shared/webview-protocol";

/** The session's plan as the chat shows and edits it (PlanState). */
export interface ChatPlan {
  readonly phases: readonly TodoPhase[];
  /** The agent in plan mode has answered: the chat offers Approve plan and Keep planning. */
  readonly awaitingApproval: boolean;
  readonly onDidChange: Event<void>;
  /** The user changed the plan: the agent gets it. */
  edit(phases: TodoPhase[]): Promise<void>;
  /** The user keeps planning: the offer waits for the agent's next answer. */
  keepPlanning(): void;
}

/** The changes of this chat's session waiting for review, as its changes line shows them (never another session's). */
export interface ChatChanges {
  readonly onDidChange: Event<void>;
  summary(): ChangesSummary;
  /** The line's buttons: Review (the Changes view and the first diff), Keep All, Undo All. */
  act(action: "review" | "keepAll" | "undoAll"): Promise<unknown>;
  /**
   * Opens the review's diff of `file` (absolute) when it is under review, at the first line of
   * `near` when the file holds it (a tool card's change): false when the file is not under review.
   */
  openDiff(file: string, near?: string): Promise<boolean>;
  /** Files (absolute) of this session's agent the user undid since the last message: the next one tells the agent. */
  takeUndone(): string[];
}

/** What a chat asks of its own session (never of "the active one"): the header's menu and rewind. */
export interface ChatSessionActions {
  /** A command of the header's sessions menu, for this chat's session. */
  run(command: SessionCommand): Promise<unknown>;
  /** Rewinds this chat's session: to a user message of the transcript, or one chosen in a picker. */
  rewind(userMessage?: { text: string; fromEnd: number }): Promise<unknown>;
  /** Switches this chat's session to a permission mode (Full auto is confirmed first). */
  setPermissionMode(mode: PermissionMode): Promise<unknown>;
  /** Approve Plan for this chat's session: the working mode picked, the agent told to go ahead. */
  approvePlan(): Promise<unknown>;
  /** This chat's plan in the Plan view (renaming, moving, adding, removing tasks). */
  editPlan(): Promise<unknown>;
}
