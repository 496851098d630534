/**
 * The permission gate's question (session/tool-gates/permission-policy.ts) as ACP's
 * session/request_permission on the call it is about: the gate's answers offered as they are
 * (Allow once → allow_once, each "… for this session" → allow_always, Deny → reject_once), plus
 * reject_always, which this face keeps: later calls of that tool in the session are denied without
 * asking. The whole question (command, path, change) is in the request, as text and as rawInput.
 */
import type { AgentContext, PermissionOption, PermissionOptionKind } from "./sdk";
import type { ToolCall } from "../ai/types";
import { ALLOW_ONCE, DENY } from "../session/tool-gates/permission-answers";
import type { AskChoice } from "../session/tool-gates/permission-policy";
import { toolKind, toolTitle } from "./tool-calls";

const REJECT_ALWAYS = "reject-always";

/** Deny refuses; an answer that lasts ("… for this session") is allow_always; any other lets this one call run. */
function optionKind(answer: string): PermissionOptionKind {
  if (answer === DENY) return "reject_once";
  if (answer !== ALLOW_ONCE && answer.endsWith("for this session")) return "allow_always";
  return "allow_once";
}

export function permissionOptions(answers: readonly string[], tool: string): PermissionOption[] {
  return [
    ...answers.map((name, index) => ({ optionId: String(index), name, kind: optionKind(name) })),
    ...(answers.includes(DENY) ? [{ optionId: REJECT_ALWAYS, name: `Deny every ${tool} call for this session`, kind: "reject_always" as const }] : []),
  ];
}

/** The gate's AskChoice for one ACP session. */
export function acpAskPermission(client: () => AgentContext, sessionId: () => string): AskChoice {
  const deniedTools = new Set<string>();
  return async (title, answers, signal, call?: ToolCall) => {
    const tool = call?.name ?? "tool";
    if (deniedTools.has(tool) && answers.includes(DENY)) return DENY;
    const args = (call?.arguments ?? {}) as Record<string, unknown>;
    // A cancelled run stops waiting at once: a client that never answers the cancelled question cannot hold the prompt.
    const response = await client().request(
      "session/request_permission",
      {
        sessionId: sessionId(),
        toolCall: {
          toolCallId: call?.id ?? `pi-question-${Date.now()}`,
          title: toolTitle(tool, args),
          kind: toolKind(tool),
          status: "pending",
          rawInput: args,
          content: [{ type: "content", content: { type: "text", text: title } }],
        },
        options: permissionOptions(answers, tool),
      },
      { cancellationSignal: signal, stopWaitingOnCancel: true },
    ).catch(() => ({ outcome: { outcome: "cancelled" as const } })); // a question that failed (no such method, a closed client) denies
    if (response.outcome.outcome !== "selected") return undefined;
    const chosen = response.outcome.optionId;
    if (chosen === REJECT_ALWAYS) {
      deniedTools.add(tool);
      return DENY;
    }
    return answers[Number(chosen)];
  };
}
