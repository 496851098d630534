/**
 * ACP's `session/request_permission` as our permission question: a `select` dialog (the native
 * quick pick, or the chat's inline card) whose title carries the whole tool call (its title and
 * every text, diff and command it holds) and whose options are the agent's own, named as it names
 * them. Names are foreign strings: control characters are shown escaped, and two options with one
 * name get their kind added so that each answer maps back to one optionId.
 */
import type * as acp from "@agentclientprotocol/sdk" with { "resolution-mode": "import" };

/** Control characters (but newlines and tabs) as visible escapes: a name cannot hide text or forge lines. */
export function visible(text: string): string {
  return text.replace(/[\u0000-\u0008\u000b-\u001f\u007f-\u009f\u200b-\u200f\u202a-\u202e\u2066-\u2069]/g, (c) => `\\u${c.charCodeAt(0).toString(16).padStart(4, "0")}`);
}

const kindLabel: Record<string, string> = { allow_once: "allow once", allow_always: "allow always", reject_once: "reject once", reject_always: "reject always" };

export interface PermissionQuestion {
  title: string;
  /** The labels offered, in the agent's order. */
  labels: string[];
  /** The optionId each label stands for. */
  optionOf(label: string): string | undefined;
}

/** What the agent wants to do, in full: the title, then each content item (diffs whole). */
export function describeToolCall(call: acp.ToolCallUpdate): string {
  const lines = [visible(call.title ?? "a tool call")];
  if (call.kind) lines[0] += ` (${call.kind})`;
  for (const item of call.content ?? []) {
    if (item.type === "diff") {
      lines.push(`${item.oldText === null || item.oldText === undefined ? "Create" : "Change"} ${visible(item.path)}:`);
      if (item.oldText) lines.push(...item.oldText.split("\n").map((l) => `- ${visible(l)}`));
      lines.push(...item.newText.split("\n").map((l) => `+ ${visible(l)}`));
    } else if (item.type === "content" && item.content.type === "text") {
      lines.push(visible(item.content.text));
    } else if (item.type === "terminal") {
      lines.push(`(terminal ${visible(item.terminalId)})`);
    }
  }
  const raw = call.rawInput as { command?: unknown } | undefined;
  if (raw && typeof raw.command === "string" && !lines.some((l) => l.includes(raw.command as string))) lines.push(`$ ${visible(raw.command)}`);
  for (const location of call.locations ?? []) if (!lines.some((l) => l.includes(location.path))) lines.push(visible(location.path));
  return lines.join("\n");
}

export function permissionQuestion(agentName: string, request: acp.RequestPermissionRequest): PermissionQuestion {
  const byLabel = new Map<string, string>();
  const labels: string[] = [];
  for (const option of request.options) {
    let label = visible(option.name) || option.optionId;
    if (byLabel.has(label)) label = `${label} (${kindLabel[option.kind] ?? option.kind})`;
    while (byLabel.has(label)) label = `${label} ·`;
    byLabel.set(label, option.optionId);
    labels.push(label);
  }
  return {
    title: `${visible(agentName)} asks to run: ${describeToolCall(request.toolCall)}`,
    labels,
    optionOf: (label) => byLabel.get(label),
  };
}
