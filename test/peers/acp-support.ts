/**
 * Our host in `--mode acp` (dist/agent-host.js) against the scripted LLM, driven by the ACP SDK's
 * own client over the child's stdio: what each ACP suite shares. The client records every
 * session/update and answers permission and fs requests as the test says.
 */
import { spawn, type ChildProcess } from "node:child_process";
import { mkdirSync } from "node:fs";
import { join } from "node:path";
import { Readable, Writable } from "node:stream";
import type * as Acp from "@agentclientprotocol/sdk" with { "resolution-mode": "import" };
import { startMockLlm, type MockLlm } from "../support/mock-llm";
import { assertPeerInstalled, peerLaunch, type PeerLaunch } from "../support/peers";

export const acp = require("@agentclientprotocol/sdk") as typeof Acp;

export interface ClientScript {
  /** Answers a permission request (default: the first allow_once option). */
  permission?(request: Acp.RequestPermissionRequest): Acp.RequestPermissionResponse | Promise<Acp.RequestPermissionResponse>;
  /** Offer fs/* (default false): requests are served from a Map, `writes` records them. */
  fs?: boolean;
  /** Offer terminal/* (default false): each terminal a real child process here, `terminals` records them. */
  terminal?: boolean;
}

export interface TestTerminal {
  request: Acp.CreateTerminalRequest;
  output: string;
  exit?: { exitCode: number | null; signal: string | null };
  killed: boolean;
  released: boolean;
}

export interface AcpHarness {
  llm: MockLlm;
  child: ChildProcess;
  launch: PeerLaunch;
  agent: Acp.ClientConnection["agent"];
  connection: Acp.ClientConnection;
  updates: Acp.SessionNotification[];
  permissions: Acp.RequestPermissionRequest[];
  files: Map<string, string>;
  writes: Acp.WriteTextFileRequest[];
  reads: Acp.ReadTextFileRequest[];
  terminals: Map<string, TestTerminal>;
  stderr: () => string;
  sessionDir: string;
  initialize(): Promise<Acp.InitializeResponse>;
  stop(): Promise<void>;
}

export async function startAcpHost(script: ClientScript = {}, extraArgs: string[] = [], shared?: { llm: MockLlm; launch: PeerLaunch }): Promise<AcpHarness> {
  assertPeerInstalled("host");
  const llm = shared?.llm ?? (await startMockLlm());
  const launch = shared?.launch ?? peerLaunch("host", { mockBaseUrl: llm.baseUrl });
  const sessionDir = join(launch.agentDir, "acp-sessions");
  mkdirSync(sessionDir, { recursive: true });
  const args = launch.args.map((a) => (a === "rpc" ? "acp" : a)).filter((a) => a !== "--no-session");
  const child = spawn(launch.command, [...args, "--session-dir", sessionDir, ...extraArgs], { cwd: launch.cwd, env: launch.env, stdio: ["pipe", "pipe", "pipe"] });
  let err = "";
  child.stderr!.on("data", (chunk: Buffer) => (err += chunk.toString()));
  const updates: Acp.SessionNotification[] = [];
  const permissions: Acp.RequestPermissionRequest[] = [];
  const files = new Map<string, string>();
  const writes: Acp.WriteTextFileRequest[] = [];
  const reads: Acp.ReadTextFileRequest[] = [];
  const terminals = new Map<string, TestTerminal>();
  const killers = new Map<string, () => void>();
  const exited = new Map<string, Promise<void>>();
  const terminal = (id: string): TestTerminal => {
    const t = terminals.get(id);
    if (!t) throw acp.RequestError.resourceNotFound(id);
    return t;
  };
  const exitStatus = (t: TestTerminal) => (t.exit ? { exitCode: t.exit.exitCode, signal: t.exit.signal } : null);
  const app = acp
    .client({ name: "acp-test-client" })
    .onNotification("session/update", ({ params }) => void updates.push(params))
    .onRequest("session/request_permission", async ({ params }) => {
      permissions.push(params);
      if (script.permission) return script.permission(params);
      const allow = params.options.find((o) => o.kind === "allow_once");
      return { outcome: allow ? { outcome: "selected", optionId: allow.optionId } : { outcome: "cancelled" } };
    })
    .onRequest("fs/read_text_file", ({ params }) => {
      reads.push(params);
      const content = files.get(params.path);
      if (content === undefined) throw acp.RequestError.resourceNotFound(params.path);
      return { content };
    })
    .onRequest("fs/write_text_file", ({ params }) => {
      writes.push(params);
      files.set(params.path, params.content);
      return {};
    })
    .onRequest("terminal/create", ({ params }) => {
      const id = `term-${terminals.size + 1}`;
      const t: TestTerminal = { request: params, output: "", killed: false, released: false };
      terminals.set(id, t);
      const proc = spawn(params.command, params.args ?? [], { cwd: params.cwd ?? undefined, stdio: ["ignore", "pipe", "pipe"] });
      proc.stdout.on("data", (c: Buffer) => (t.output += c.toString()));
      proc.stderr.on("data", (c: Buffer) => (t.output += c.toString()));
      exited.set(id, new Promise((resolve) => proc.once("close", (code, signal) => {
        t.exit = { exitCode: code, signal };
        resolve();
      })));
      killers.set(id, () => proc.kill("SIGKILL"));
      return { terminalId: id };
    })
    .onRequest("terminal/output", ({ params }) => {
      const t = terminal(params.terminalId);
      return { output: t.output, truncated: false, exitStatus: exitStatus(t) };
    })
    .onRequest("terminal/wait_for_exit", async ({ params }) => {
      await exited.get(params.terminalId);
      const t = terminal(params.terminalId);
      return { exitCode: t.exit?.exitCode ?? null, signal: t.exit?.signal ?? null };
    })
    .onRequest("terminal/kill", ({ params }) => {
      terminal(params.terminalId).killed = true;
      killers.get(params.terminalId)?.();
      return {};
    })
    .onRequest("terminal/release", ({ params }) => {
      terminal(params.terminalId).released = true;
      killers.get(params.terminalId)?.();
      return {};
    });
  const connection = app.connect(acp.ndJsonStream(Writable.toWeb(child.stdin!) as WritableStream<Uint8Array>, Readable.toWeb(child.stdout!) as ReadableStream<Uint8Array>));
  return {
    llm, child, launch, agent: connection.agent, connection, updates, permissions, files, writes, reads, terminals, sessionDir,
    stderr: () => err,
    initialize: () =>
      connection.agent.request("initialize", {
        protocolVersion: acp.PROTOCOL_VERSION,
        clientCapabilities: { fs: { readTextFile: script.fs === true, writeTextFile: script.fs === true }, terminal: script.terminal === true },
        clientInfo: { name: "acp-test-client", version: "1" },
      }),
    async stop() {
      connection.close();
      child.stdin!.end();
      if (child.exitCode === null) await new Promise((resolve) => child.once("exit", resolve));
      if (!shared) {
        await llm.close();
        launch.cleanup();
      }
    },
  };
}

/** initialize, then session/new in the launch's folder. */
export async function openSession(h: AcpHarness): Promise<Acp.NewSessionResponse> {
  await h.initialize();
  return h.agent.request("session/new", { cwd: h.launch.cwd, mcpServers: [] });
}

/** The text of the agent_message_chunk updates, in order. */
export const agentText = (updates: readonly Acp.SessionNotification[]): string =>
  updates.flatMap((n) => (n.update.sessionUpdate === "agent_message_chunk" && n.update.content.type === "text" ? [n.update.content.text] : [])).join("");

export const kinds = (updates: readonly Acp.SessionNotification[]): string[] => updates.map((n) => n.update.sessionUpdate);
