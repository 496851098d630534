/**
 * `@pi` in VS Code's own Chat view (issue #35): a chat participant that hands the request to the
 * user's Pi agent (the session used last) and streams its answer, a progress line per tool and
 * the files tools named into the chat, with "Open in Pi" to continue in our panel (questions,
 * queue, review). `vscode.chat.createChatParticipant` is detected at run time (1.93+); an editor
 * without it simply has no `@pi`.
 */
import * as path from "node:path";
import * as vscode from "vscode";
import type { AgentSupervisor } from "../supervision/agent-supervisor";
import { relayRun } from "./relay-run";
import { errorText } from "../../shared/error-text";

export const PARTICIPANT_ID = "pi-agent.pi";

export interface ParticipantTarget {
  supervisor: Pick<AgentSupervisor, "ensureStarted" | "status" | "workspaceFolder" | "deltaPace">;
  /** Shows the session in our panel ("Open in Pi"). */
  reveal(): void;
}

interface ChatRuntime {
  chat?: { createChatParticipant?: typeof vscode.chat.createChatParticipant };
}

const openInPi = { command: "pi.participant.openInPi", title: "Open in Pi" };

/** The participant's handler, for the Chat view (and for tests through the API). */
export function piChatHandler(target: () => ParticipantTarget): vscode.ChatRequestHandler {
  return async (request, _context, stream, token) => {
    const session = target();
    let client;
    try {
      client = await session.supervisor.ensureStarted();
    } catch (error) {
      return { errorDetails: { message: `Pi could not start its agent: ${errorText(error)}` } };
    }
    if (session.supervisor.status === "running") {
      stream.markdown("Pi is working on another request. Follow it in Pi, or ask again when it is done.");
      stream.button(openInPi);
      return {};
    }
    const folder = session.supervisor.workspaceFolder;
    // The answer streams into this chat: at the pace of a chat on screen.
    const watching = session.supervisor.deltaPace.watch();
    const outcome = await relayRun(
      client,
      request.prompt,
      {
        markdown: (text) => stream.markdown(text),
        progress: (text) => stream.progress(text),
        reference: (file) => stream.reference(vscode.Uri.file(path.resolve(folder, file))),
      },
      { onCancel: (listener) => token.onCancellationRequested(listener) },
    ).finally(() => watching.dispose());
    stream.button(openInPi);
    return outcome.error ? { errorDetails: { message: outcome.error } } : { metadata: { tools: outcome.tools } };
  };
}

/** Registers `@pi` where this VS Code has chat participants (and "Open in Pi" everywhere). */
export function registerPiParticipant(target: () => ParticipantTarget, extensionUri: vscode.Uri): vscode.Disposable {
  const create = (vscode as unknown as ChatRuntime).chat?.createChatParticipant;
  const opener = vscode.commands.registerCommand(openInPi.command, () => target().reveal());
  if (typeof create !== "function") return opener;
  const participant = create(PARTICIPANT_ID, piChatHandler(target));
  participant.iconPath = vscode.Uri.joinPath(extensionUri, "media", "pi.svg");
  return vscode.Disposable.from(participant, opener);
}
