/**
 * `--mode acp`: the host as an Agent Client Protocol agent on stdio (the official SDK's agent
 * side; this file and the SDK are dist/acp-mode.js, loaded only in this mode). Each ACP session
 * is a host runtime of its own, made by rpc/acp-launch.ts with the same wiring as --mode rpc;
 * the client's fs serves the file tools and its session/request_permission the permission
 * questions, when it offers them. What goes where: docs/acp.md.
 */
import { statSync } from "node:fs";
import { isAbsolute } from "node:path";
import { Readable } from "node:stream";
import type { SessionSummary } from "../../shared/node/session-summary";
import { acp, type AgentConnection, type ClientCapabilities, type InitializeResponse, type ListSessionsResponse, type McpServer } from "./sdk";
import { AcpSession, beforeReader } from "./acp-session";
import { clientToolIo } from "./client-fs";
import { clientShellIo } from "./client-terminal";
import { answerDialog } from "./dialogs";
import type { AcpHost, AcpRuntime } from "./host";
import { clientMcpEntries } from "./mcp-servers";
import { permissionModeOf } from "./modes";
import { acpAskPermission } from "./permission";
import { batchedWritable } from "./stdout-stream";
import { errorText } from "../../shared/error-text";

type Frame = { type?: unknown; [key: string]: unknown };

/** Resolves with the exit code: 0 when the client ended the input, 1 when the connection failed (the reason on stderr). */
export async function serveAcp(host: AcpHost): Promise<number> {
  const sessions = new Map<string, AcpSession>();
  let capabilities: ClientCapabilities = {};
  let connection: AgentConnection | undefined;
  const client = () => {
    if (!connection) throw new Error("not connected");
    return connection.client;
  };
  const report = (error: unknown) => host.warn(`ACP: ${errorText(error)}`);
  const find = (sessionId: string): AcpSession => {
    const session = sessions.get(sessionId);
    if (!session) throw acp.RequestError.sessionNotFound(sessionId);
    return session;
  };

  /** A session's runtime; its frames wait until the ACP session exists (the id is the runtime's). */
  async function open(cwd: string, mcpServers: readonly McpServer[], sessionRef?: string): Promise<AcpSession> {
    checkCwd(cwd);
    let session: AcpSession | undefined;
    let sessionId = "";
    const early: Frame[] = [];
    const route = (frame: Frame) => {
      if (!session) return void early.push(frame);
      if (frame.type !== "extension_ui_request") return session.updates.frame(frame);
      const runtime = session.runtime;
      answerDialog(frame, runtime, client(), sessionId, host.warn).catch((error: unknown) => {
        report(error);
        runtime.extensionUi?.receive({ type: "extension_ui_response", id: String(frame.id), cancelled: true });
      });
    };
    const runtime: AcpRuntime = await host.createRuntime({
      cwd,
      ...(sessionRef ? { sessionRef } : {}),
      mcpServers: clientMcpEntries(mcpServers, host.warn),
      send: (frame) => route(frame as Frame),
      toolIo: {
        ...clientToolIo(client, () => sessionId, capabilities.fs),
        ...(capabilities.terminal ? { shell: clientShellIo(client, () => sessionId, (command, terminalId) => session?.updates.terminal(command, terminalId)) } : {}),
      },
      askPermission: acpAskPermission(client, () => sessionId),
    });
    sessionId = runtime.session.sessions.sessionId;
    session = new AcpSession(sessionId, client, cwd, beforeReader(client, () => sessionId, capabilities.fs?.readTextFile === true), report);
    session.attach(runtime);
    runtime.session.onEvent((event) => route(event as Frame));
    for (const frame of early.splice(0)) route(frame);
    sessions.set(sessionId, session);
    return session;
  }

  /** A saved session opened again (session/load, session/resume): by its exact id, in a folder that exists. */
  async function reopen(params: { sessionId: string; cwd: string; mcpServers?: readonly McpServer[] | null }): Promise<AcpSession> {
    if (sessions.has(params.sessionId)) throw acp.RequestError.invalidRequest(undefined, `Session ${params.sessionId} is already open`);
    checkCwd(params.cwd);
    try {
      return await open(params.cwd, params.mcpServers ?? [], params.sessionId);
    } catch (error) {
      throw acp.RequestError.resourceNotFound(`${params.sessionId}: ${errorText(error)}`);
    }
  }

  const app = acp.agent({ name: "pi-agent-host" })
    .onRequest("initialize", ({ params }): InitializeResponse => {
      capabilities = params.clientCapabilities ?? {};
      return {
        protocolVersion: acp.PROTOCOL_VERSION,
        agentCapabilities: {
          loadSession: true,
          promptCapabilities: { image: true, audio: false, embeddedContext: true },
          mcpCapabilities: { http: true, sse: false },
          sessionCapabilities: { close: {}, list: {}, resume: {} },
        },
        agentInfo: { name: "pi-agent-host", title: "Pi Agent (VS Code agent host)", version: host.version },
        authMethods: [],
        _meta: { pi: { protocol: "pi-agent-host", docs: "docs/acp.md" } },
      };
    })
    .onRequest("session/new", async ({ params }) => {
      const session = await open(params.cwd, params.mcpServers ?? []);
      session.announce();
      return { sessionId: session.sessionId, modes: session.modes(), configOptions: session.configOptions(), _meta: session.meta() };
    })
    .onRequest("session/load", async ({ params }) => {
      const session = await reopen(params);
      session.replay();
      session.announce();
      await session.updates.flushed();
      return { modes: session.modes(), configOptions: session.configOptions(), _meta: session.meta() };
    })
    // As session/load, without the conversation replayed (the client shows what it has).
    .onRequest("session/resume", async ({ params }) => {
      const session = await reopen(params);
      session.announce();
      await session.updates.flushed();
      return { modes: session.modes(), configOptions: session.configOptions(), _meta: session.meta() };
    })
    .onRequest("session/list", ({ params }) => {
      if (params.cwd !== undefined && params.cwd !== null && !isAbsolute(params.cwd)) throw acp.RequestError.invalidParams({ cwd: params.cwd }, "cwd must be an absolute path");
      return sessionPage(host.listSessions(params.cwd ?? undefined), params.cursor ?? undefined);
    })
    .onRequest("session/prompt", ({ params }) => find(params.sessionId).prompt(params.prompt))
    .onNotification("session/cancel", async ({ params }) => {
      await sessions.get(params.sessionId)?.cancel();
    })
    .onRequest("session/set_mode", ({ params }) => {
      const mode = permissionModeOf(params.modeId);
      if (!mode) throw acp.RequestError.invalidParams(undefined, `Unknown mode: ${params.modeId}`);
      find(params.sessionId).setMode(mode);
      return {};
    })
    .onRequest("session/set_config_option", ({ params }) => ({ configOptions: find(params.sessionId).setConfigOption(params.configId, params.value) }))
    .onRequest("session/close", async ({ params }) => {
      const session = find(params.sessionId);
      sessions.delete(params.sessionId);
      await closeRuntime(session.runtime);
      return {};
    });

  connection = app.connect(acp.ndJsonStream(batchedWritable(host.output), Readable.toWeb(host.input) as ReadableStream<Uint8Array>));
  await connection.closed;
  // The SDK closes with its own generic error at the end of input; anything else (a line over its 32 MB limit, a broken pipe) is said.
  const reason: unknown = connection.signal.reason;
  const failed = reason instanceof Error && reason.message !== "ACP connection closed";
  if (failed) host.warn(`ACP connection closed: ${reason.message}`);
  // Nobody reads the output any more: every session closes.
  await Promise.all([...sessions.values()].map(({ runtime }) => closeRuntime(runtime)));
  return failed ? 1 : 0;
}

/** A session's end: its run aborted, extensions hear session_shutdown, MCP servers close (each bounded). */
async function closeRuntime(runtime: AcpRuntime): Promise<void> {
  const bounded = (work: Promise<unknown> | undefined) => Promise.race([work, new Promise((resolve) => setTimeout(resolve, 1000).unref())]);
  runtime.extensionUi?.cancelAll();
  await bounded(runtime.session.abort());
  await bounded(runtime.extensions?.shutdown());
  await bounded(runtime.mcp?.dispose());
  runtime.session.dispose();
}

/** Sessions per session/list page; the cursor is the offset of the next one. */
export const SESSION_PAGE = 50;

export function sessionPage(all: readonly SessionSummary[], cursor: string | undefined): ListSessionsResponse {
  const start = cursor === undefined ? 0 : Number(cursor);
  if (cursor !== undefined && !(Number.isSafeInteger(start) && start >= 0 && String(start) === cursor)) throw acp.RequestError.invalidParams({ cursor }, "Unknown cursor");
  const page = all.slice(start, start + SESSION_PAGE);
  return {
    sessions: page.map((s) => ({ sessionId: s.id, cwd: s.cwd, title: s.name ?? s.firstMessage?.slice(0, 200) ?? null, updatedAt: s.modified.toISOString(), _meta: { pi: { messageCount: s.messageCount } } })),
    ...(start + SESSION_PAGE < all.length ? { nextCursor: String(start + SESSION_PAGE) } : {}),
  };
}

/** ACP's cwd: an absolute path to an existing folder (the session's files, tools and trust hang on it). */
function checkCwd(cwd: string): void {
  let folder = false;
  try {
    folder = isAbsolute(cwd) && !cwd.includes("\0") && statSync(cwd).isDirectory();
  } catch {
    folder = false;
  }
  if (!folder) throw acp.RequestError.invalidParams({ cwd }, "cwd must be the absolute path of an existing folder");
}
