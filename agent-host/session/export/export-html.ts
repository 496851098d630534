import { writeFileSync } from "node:fs";
import { basename, resolve } from "node:path";
import type { AgentMessage } from "../../../shared/protocol";
import type { SessionManager } from "../persistence/session-manager";
import { PRIVATE_FILE_MODE } from "../../../shared/node/private-files";

const escape = (text: string) => text.replace(/[&<>"']/g, (c) => ({ "&": "&amp;", "<": "&lt;", ">": "&gt;", '"': "&quot;", "'": "&#39;" })[c]!);

function block(kind: string, title: string, body: string): string {
  return `<section class="${kind}"><h2>${escape(title)}</h2><pre>${escape(body)}</pre></section>`;
}

function render(message: AgentMessage): string {
  switch (message.role) {
    case "user":
      return block("user", "User", typeof message.content === "string" ? message.content : message.content.map((c) => (c.type === "text" ? c.text : `[image ${c.mimeType}]`)).join(""));
    case "assistant":
      return message.content
        .map((c) =>
          c.type === "text" ? block("assistant", "Assistant", c.text) : c.type === "thinking" ? block("thinking", "Thinking", c.thinking) : block("tool-call", `Tool call: ${c.name}`, JSON.stringify(c.arguments, null, 2)),
        )
        .join("") + (message.errorMessage ? block("error", "Error", message.errorMessage) : "");
    case "toolResult":
      return block(message.isError ? "error" : "tool-result", `Result: ${message.toolName}`, message.content.map((c) => (c.type === "text" ? c.text : `[image ${c.mimeType}]`)).join(""));
    case "bashExecution":
      return block("bash", `$ ${message.command}`, message.output);
    case "compactionSummary":
    case "branchSummary":
      return block("summary", "Summary", message.summary);
    case "custom":
      return block("custom", message.customType, typeof message.content === "string" ? message.content : message.content.map((c) => (c.type === "text" ? c.text : "")).join(""));
    default:
      return "";
  }
}

/** Writes the current branch as one self-contained HTML file (no scripts, nothing remote); returns its path. */
export function exportSessionHtml(sessions: SessionManager, outputPath?: string): string {
  const messages = sessions.branch().flatMap((e) => (e.type === "message" ? [e.message] : []));
  const title = sessions.name ?? `Session ${sessions.sessionId}`;
  const file = resolve(outputPath ?? `pi-session-${basename(sessions.sessionFile ?? sessions.sessionId, ".jsonl")}.html`);
  const html = `<!DOCTYPE html>
<html lang="en"><head><meta charset="utf-8">
<meta http-equiv="Content-Security-Policy" content="default-src 'none'; style-src 'unsafe-inline'">
<title>${escape(title)}</title>
<style>
body{font:14px/1.5 system-ui,sans-serif;max-width:900px;margin:2em auto;padding:0 1em;color:#222}
h1{font-size:1.3em}h2{font-size:.8em;text-transform:uppercase;color:#666;margin:0 0 .3em}
section{border-left:3px solid #ccc;padding:.3em .8em;margin:1em 0}
pre{white-space:pre-wrap;word-break:break-word;margin:0;font:13px/1.45 ui-monospace,monospace}
.user{border-color:#3b82f6}.assistant{border-color:#10b981}.error{border-color:#ef4444}.thinking{color:#666}
</style></head><body>
<h1>${escape(title)}</h1>
<p>${escape(sessions.header.cwd)} · ${escape(sessions.header.timestamp)}</p>
${messages.map(render).join("\n")}
</body></html>
`;
  writeFileSync(file, html, { mode: PRIVATE_FILE_MODE });
  return file;
}
