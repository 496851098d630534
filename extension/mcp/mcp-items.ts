/**
 * What the MCP quick pick shows of each server the bundled host reports (`get_mcp_servers`):
 * those that need attention first, each with its state, tool count, exposure and source, and the
 * failure's first line. Server names and errors come from files and servers: shown as plain text.
 */
import type { McpServerStatus } from "../../shared/protocol";
import { quickPickText } from "../ui/plain-text";

export interface McpServerItem {
  label: string;
  description: string;
  detail?: string;
  server: McpServerStatus;
}

const attention = (s: McpServerStatus): number => (s.state === "failed" || s.state === "needs-auth" ? 0 : s.state === "connecting" ? 1 : s.state === "connected" ? 2 : 3);
const source = { user: "~/.pi/agent/mcp.json", project: ".pi/mcp.json", vscode: "VS Code's mcp.json" } as const;

export function mcpServerItems(servers: readonly McpServerStatus[]): McpServerItem[] {
  return [...servers]
    .sort((a, b) => attention(a) - attention(b) || a.name.localeCompare(b.name))
    .map((server) => ({
      label: quickPickText(server.name),
      description: `${server.state} · ${server.tools} tool${server.tools === 1 ? "" : "s"} · ${server.exposure} · ${server.transport} · ${source[server.source]}`,
      ...(server.error ? { detail: quickPickText(server.error.split("\n", 1)[0] ?? "") } : {}),
      server,
    }));
}

export type McpServerAction = "sign-in" | "sign-out" | "show-error";

export interface McpServerActionItem {
  label: string;
  action: McpServerAction;
}

/**
 * What can be done with a picked server: an HTTP server can be signed in to (first when it waits
 * for that) and out of; a failed one's whole error can be read.
 */
export function mcpServerActions(server: McpServerStatus): McpServerActionItem[] {
  const actions: McpServerActionItem[] = [];
  if (server.transport === "http") actions.push({ label: "Sign in", action: "sign-in" }, { label: "Sign out", action: "sign-out" });
  if (server.state === "failed" && server.error) actions.push({ label: "Show the error", action: "show-error" });
  return actions;
}

export interface SignInChoice {
  label: string;
  detail: string;
  action: "open";
}

/** The sign-in question's row: the whole page as plain text (Escape declines). */
export function signInChoices(url: URL): SignInChoice[] {
  return [{ label: "Open in Browser", detail: quickPickText(url.href), action: "open" }];
}
