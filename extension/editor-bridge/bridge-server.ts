/**
 * The editor bridge's server (plain node:http, no vscode, so the peer tests run it as it is): a
 * loopback HTTP server per agent process that runs the editor's host tools for the Pi extension
 * pi-editor-bridge.ts (the routes: bridge-protocol.ts). The gateway's pattern (gateway-server.ts):
 * a fresh 32-byte token compared in constant time, refused when missing or wrong (401), a
 * browser's request (Origin or Sec-Fetch-Site: 403), a Host other than its own address (DNS
 * rebinding: 403); the request body is bounded. The arguments go to the tool as they came: each
 * tool checks its own (tool.ts's defineTool), as it does for host_tool_call.
 */
import * as crypto from "node:crypto";
import * as http from "node:http";
import type { AddressInfo, Socket } from "node:net";
import { CancellationTokenSource } from "vscode-jsonrpc";
import { isRecord, parseForeignJson } from "../../shared/foreign-json";
import type { HostTool, HostToolOutcome } from "../../shared/rpc/host-tool-registry";
import type { BridgeLine, BridgeMode } from "./bridge-protocol";
import { errorText } from "../../shared/error-text";
import { readRequestText } from "../../shared/node/request-body";

export interface BridgeServerOptions {
  /** The tools served, looked up by name at each call (the list may change). */
  tools(): readonly HostTool[];
  /** How the agent gets the editor tools; may wait for the agent's probe. */
  mode(): Promise<BridgeMode>;
  /** The bridge said hello (it loaded in the agent). */
  onHello?(): void;
}

export interface BridgeServer {
  /** `http://127.0.0.1:PORT` */
  readonly url: string;
  readonly token: string;
  /** Tool calls running now. */
  readonly running: number;
  close(): Promise<void>;
}

const MAX_REQUEST_BYTES = 4 * 1024 * 1024;

export async function startBridgeServer(options: BridgeServerOptions): Promise<BridgeServer> {
  const token = crypto.randomBytes(32).toString("base64url");
  const expected = Buffer.from(`Bearer ${token}`);
  const sockets = new Set<Socket>();
  const calls = new Set<CancellationTokenSource>();
  let ownHost = "";
  const server = http.createServer((req, res) => void handle(req, res).catch(() => res.destroy()));
  server.on("connection", (socket) => {
    socket.setNoDelay(true);
    sockets.add(socket);
    socket.on("close", () => sockets.delete(socket));
  });

  const send = (res: http.ServerResponse, status: number, body: unknown) => {
    res.writeHead(status, { "content-type": "application/json" });
    res.end(JSON.stringify(body));
  };
  const authorized = (value: string | undefined): boolean => {
    const given = Buffer.from(value ?? "");
    return given.length === expected.length && crypto.timingSafeEqual(given, expected);
  };

  async function handle(req: http.IncomingMessage, res: http.ServerResponse): Promise<void> {
    if (req.headers.origin !== undefined || req.headers["sec-fetch-site"] !== undefined) return send(res, 403, { error: "browser requests are refused" });
    if (req.headers.host !== ownHost) return send(res, 403, { error: "wrong Host" });
    if (!authorized(req.headers.authorization)) return send(res, 401, { error: "missing or wrong token" });
    const route = req.url ?? "";
    if (req.method === "POST" && route === "/hello") {
      options.onHello?.();
      return send(res, 200, { ok: true });
    }
    if (req.method === "GET" && route === "/mode") return send(res, 200, { mode: await options.mode() });
    const match = /^\/tools\/([A-Za-z0-9_-]{1,64})$/.exec(route);
    if (req.method !== "POST" || !match) return send(res, 404, { error: "no such route" });
    const tool = options.tools().find((t) => t.definition.name === match[1]);
    if (!tool) return send(res, 404, { error: `unknown editor tool: ${match[1]}` });
    const body = await readRequestText(req, MAX_REQUEST_BYTES);
    if (body === undefined) return send(res, 413, { error: "request too large" });
    const parsed = parseForeignJson(body);
    const call = parsed.ok && isRecord(parsed.value) ? parsed.value : undefined;
    if (!call || (call.arguments !== undefined && !isRecord(call.arguments))) return send(res, 400, { error: "expected {toolCallId, arguments}" });
    await runTool(tool, call, res);
  }

  async function runTool(tool: HostTool, call: Record<string, unknown>, res: http.ServerResponse): Promise<void> {
    const source = new CancellationTokenSource();
    calls.add(source);
    // The bridge aborted the call (pi's abort, the agent gone): the tool's token is cancelled.
    res.on("close", () => source.cancel());
    res.writeHead(200, { "content-type": "application/x-ndjson" });
    const line = (value: BridgeLine) => {
      if (!res.writableEnded && !res.destroyed) res.write(`${JSON.stringify(value)}\n`);
    };
    let outcome: HostToolOutcome;
    try {
      outcome = await tool.execute((call.arguments ?? {}) as Record<string, unknown>, {
        token: source.token,
        toolCallId: typeof call.toolCallId === "string" ? call.toolCallId : "",
        update: (partialResult) => line({ type: "update", partialResult }),
      });
    } catch (error) {
      outcome = { content: [{ type: "text", text: errorText(error) }], isError: true };
    } finally {
      calls.delete(source);
      source.dispose();
    }
    const { isError, ...result } = outcome;
    line({ type: "result", result, ...(isError ? { isError: true } : {}) });
    res.end();
  }

  await new Promise<void>((resolve, reject) => {
    server.once("error", reject);
    server.listen(0, "127.0.0.1", () => resolve());
  });
  ownHost = `127.0.0.1:${(server.address() as AddressInfo).port}`;
  return {
    url: `http://${ownHost}`,
    token,
    get running() {
      return calls.size;
    },
    close: () =>
      new Promise<void>((resolve) => {
        for (const call of calls) call.cancel();
        for (const socket of sockets) socket.destroy();
        server.close(() => resolve());
      }),
  };
}
