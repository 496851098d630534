import * as vscode from "vscode";
import type { PermissionMode } from "../../shared/protocol";
import type { ChatSessionActions } from "../chat/session-actions";
import { sessionCommandActions, type CommandContext } from "../commands";
import type { RewindRequest } from "../checkpoints";
import type { AgentSession } from "./agent-session";

export interface ChatActionServices {
  /** The command context of one session (its agent, its chat). */
  commandContext(session: AgentSession): CommandContext;
  rewind(request: RewindRequest): Promise<unknown>;
  openInTab(): unknown;
  openInTerminal(session: AgentSession): Promise<unknown>;
  setPermissionMode(session: AgentSession, mode: PermissionMode): Promise<unknown>;
  approvePlan(session: AgentSession): Promise<unknown>;
  /** The user worked in this session's chat: it becomes the one commands act on. */
  setActive(session: AgentSession): void;
}

/** A chat's actions, bound to its own session: direct calls, whichever session is the active one. */
export function chatActionsFor(session: AgentSession, services: ChatActionServices): ChatSessionActions {
  return {
    run: async (command) => {
      services.setActive(session);
      switch (command) {
        case "rewind":
          return services.rewind({ supervisor: session.supervisor });
        case "newSessionInTab":
          return services.openInTab();
        case "openInTerminal":
          return services.openInTerminal(session);
        default:
          return sessionCommandActions(services.commandContext(session))[command]();
      }
    },
    setPermissionMode: (mode) => services.setPermissionMode(session, mode),
    approvePlan: () => services.approvePlan(session),
    // The Plan view shows the active session's plan: this one becomes it.
    editPlan: async () => {
      services.setActive(session);
      return vscode.commands.executeCommand("pi.plan.focus");
    },
    rewind: (userMessage) => services.rewind({ supervisor: session.supervisor, ...(userMessage ? { userMessage } : {}) }),
  };
}
