/**
 * An in-process ACP agent of the SDK's making that needs sign-in, driven through the bridge: the
 * sign-in tests' agent (acp-sign-in.test.ts, acp-sign-in-cancel.test.ts).
 */
import { strict as assert } from "node:assert";
import * as fs from "node:fs";
import * as os from "node:os";
import * as path from "node:path";
import type * as Acp from "@agentclientprotocol/sdk" with { "resolution-mode": "import" };
import { AcpBridge } from "./acp-bridge";
import type { SignInMemory, SignInUi } from "./acp-sign-in";

export interface AgentScript {
  methods: Acp.AuthMethod[];
  /** session/new: throws while it answers true. */
  refuses(): boolean;
  error?: (acp: typeof Acp) => Error;
  /** session/new never answers. */
  hang?: boolean;
  /** session/prompt: throws auth required while it answers true. */
  refusesPrompt?: () => boolean;
  /** Declares agentCapabilities.auth.logout; `logout` runs this. */
  logout?: () => void;
  /** session/prompt: waits for session/cancel, then throws auth required. */
  refusesAfterCancel?: boolean;
}

export async function start(script: AgentScript, ui: SignInUi | undefined, extra: { signInEnv?: Record<string, string>; signInMemory?: SignInMemory } = {}) {
  const acp = (await import("@agentclientprotocol/sdk")) as typeof Acp;
  const toAgent = new TransformStream<Uint8Array, Uint8Array>();
  const toClient = new TransformStream<Uint8Array, Uint8Array>();
  // The agent's output goes through a pipe the test can cut, as an agent's stdout ends when it exits.
  const agentOut = new TransformStream<Uint8Array, Uint8Array>();
  const output = new AbortController();
  agentOut.readable.pipeTo(toClient.writable, { signal: output.signal }).catch(() => undefined);
  let cancelled: () => void = () => undefined;
  const cancel = new Promise<void>((resolve) => (cancelled = resolve));
  const seen: { initialize?: Acp.InitializeRequest; authenticate: Acp.AuthenticateRequest[]; sessionNew: number; prompts: number; logout: number } = { authenticate: [], sessionNew: 0, prompts: 0, logout: 0 };
  acp.agent()
    .onRequest("initialize", ({ params }) => ((seen.initialize = params), { protocolVersion: acp.PROTOCOL_VERSION, agentCapabilities: script.logout ? { auth: { logout: {} } } : {}, authMethods: script.methods }))
    .onRequest("authenticate", ({ params }) => (seen.authenticate.push(params), {}))
    .onRequest("logout", () => (seen.logout++, script.logout?.(), {}))
    .onRequest("session/new", async () => {
      seen.sessionNew++;
      if (script.hang) await new Promise(() => undefined);
      if (script.refuses()) throw script.error ? script.error(acp) : acp.RequestError.authRequired(undefined, "sign in first");
      return { sessionId: "s1" };
    })
    .onNotification("session/cancel", () => cancelled())
    .onRequest("session/prompt", async () => {
      seen.prompts++;
      if (script.refusesAfterCancel) {
        await cancel;
        throw acp.RequestError.authRequired(undefined, "sign in to prompt");
      }
      if (script.refusesPrompt?.()) throw acp.RequestError.authRequired(undefined, "sign in to prompt");
      return { stopReason: "end_turn" as const };
    })
    .connect(acp.ndJsonStream(agentOut.writable, toAgent.readable));
  const cwd = fs.mkdtempSync(path.join(os.tmpdir(), "acp-sign-in-"));
  const frames: Record<string, unknown>[] = [];
  const bridge = new AcpBridge(acp, (f) => frames.push(f as Record<string, unknown>), {
    cwd,
    agentName: "test agent",
    files: { readTextFile: async () => "", writeTextFile: async () => undefined },
    ...(ui ? { signIn: ui } : {}),
    invocation: { command: "node", args: ["/opt/agent.js", "--acp"] },
    ...extra,
  });
  const started = bridge.connect(acp.ndJsonStream(toAgent.writable, toClient.readable));
  return { bridge, seen, started, frames, endAgentOutput: () => output.abort(), cleanup: () => (bridge.dispose(), fs.rmSync(cwd, { recursive: true, force: true })) };
}

export const noUi = (overrides: Partial<SignInUi>): SignInUi => ({
  choose: async () => assert.fail("not asked"),
  apiKey: async () => assert.fail("no key"),
  gateway: async () => assert.fail("no gateway"),
  runInTerminal: async () => assert.fail("no terminal"),
  ...overrides,
});
