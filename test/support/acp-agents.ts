/**
 * Launch recipes for the real ACP agents installed by `test/peers/install.sh acp-agents`, made
 * offline and pointed at our scripted model servers (mock-llm.ts: OpenAI chat; mock-google.ts:
 * Google Generative AI; mock-anthropic.ts: Anthropic Messages), each with a throw-away HOME (see /work/shared notes and docs/acp.md).
 */
import * as fs from "node:fs";
import * as os from "node:os";
import * as path from "node:path";
import { PEERS_ROOT } from "./peers";
import { AcpTransport } from "../../extension/acp/acp-transport";
import type { AcpFileServices } from "../../extension/acp/acp-files";
import type { AcpBridgeOptions } from "../../extension/acp/acp-bridge-options";
import { RpcClient } from "../../shared/rpc";
import type { AgentEvent } from "../../shared/protocol";

export type AcpAgentKind = "opencode" | "gemini" | "claude-code";

export interface AcpAgentLaunch {
  kind: AcpAgentKind;
  command: string;
  args: string[];
  env: NodeJS.ProcessEnv;
  /** The throw-away HOME. */
  home: string;
  /** Removes the HOME (retried a while: an agent's own children may still write there just after it stopped). */
  cleanup(): Promise<void>;
}

/** Found as peers.ts finds the others (this file is also bundled into dist-test/). */
const ACP_PEERS = path.join(PEERS_ROOT, "acp-agents", "node_modules");

export const acpAgentFiles: Record<AcpAgentKind, string> = {
  opencode: path.join(ACP_PEERS, "opencode-linux-x64", "bin", "opencode"),
  gemini: path.join(ACP_PEERS, "@google", "gemini-cli", "bundle", "gemini.js"),
  // Deprecated upstream (claude-agent-acp replaces it) but the one that runs its commands in the
  // client's terminals (mcp__acp__Bash) and writes through the client's fs (mcp__acp__Write).
  "claude-code": path.join(ACP_PEERS, "@zed-industries", "claude-code-acp", "dist", "index.js"),
};

export function assertAcpAgentInstalled(kind: AcpAgentKind): void {
  if (!fs.existsSync(acpAgentFiles[kind])) throw new Error(`The ACP agent ${kind} is not installed: run bash test/peers/install.sh acp-agents`);
}

/** The environment without anything that reaches a real service or a real account. */
function baseEnv(home: string): NodeJS.ProcessEnv {
  const env: NodeJS.ProcessEnv = { PATH: process.env.PATH, HOME: home, USERPROFILE: home, TMPDIR: os.tmpdir(), LANG: "C.UTF-8", NO_COLOR: "1" };
  for (const name of ["http_proxy", "https_proxy", "HTTP_PROXY", "HTTPS_PROXY"]) delete env[name];
  return env;
}

/** Claude Code's CLI (claude-code-acp's child) goes on writing its debug log for a moment after the agent stopped. */
async function removeDir(dir: string): Promise<void> {
  for (let attempt = 0; ; attempt++) {
    try {
      fs.rmSync(dir, { recursive: true, force: true });
      return;
    } catch (error) {
      if (attempt >= 50) throw error;
      await new Promise((resolve) => setTimeout(resolve, 100));
    }
  }
}

/** `signedOut`: gemini with its key method chosen but no key given (it asks to sign in: authMethods). */
export function acpAgentLaunch(kind: AcpAgentKind, modelBaseUrl: string, signedOut = false): AcpAgentLaunch {
  assertAcpAgentInstalled(kind);
  const home = fs.mkdtempSync(path.join(os.tmpdir(), `acp-${kind}-home-`));
  const cleanup = () => removeDir(home);
  const env = baseEnv(home);
  if (kind === "opencode") {
    for (const [name, dir] of [["XDG_CONFIG_HOME", ".config"], ["XDG_DATA_HOME", ".local/share"], ["XDG_CACHE_HOME", ".cache"], ["XDG_STATE_HOME", ".local/state"]] as const) {
      env[name] = path.join(home, dir);
      fs.mkdirSync(env[name]!, { recursive: true });
    }
    for (const flag of ["MODELS_FETCH", "AUTOUPDATE", "DEFAULT_PLUGINS", "LSP_DOWNLOAD", "SHARE", "CLAUDE_CODE"]) env[`OPENCODE_DISABLE_${flag}`] = "true";
    env.OPENCODE_CONFIG_CONTENT = JSON.stringify({
      model: "mock/mock",
      small_model: "mock/mock",
      provider: { mock: { npm: "@ai-sdk/openai-compatible", name: "Mock", options: { baseURL: modelBaseUrl, apiKey: "mock-key" }, models: { mock: { name: "Mock" }, "mock-large": { name: "Mock Large" } } } },
      permission: { edit: "ask", bash: "ask" },
    });
    return { kind, command: acpAgentFiles.opencode, args: ["acp", "--pure"], env, home, cleanup };
  }
  if (kind === "claude-code") {
    Object.assign(env, {
      ANTHROPIC_API_KEY: "mock-key", ANTHROPIC_BASE_URL: modelBaseUrl,
      DISABLE_TELEMETRY: "1", DISABLE_ERROR_REPORTING: "1", DISABLE_AUTOUPDATER: "1", CLAUDE_CODE_DISABLE_NONESSENTIAL_TRAFFIC: "1",
      // Run as root with any IS_SANDBOX (this machine has IS_SANDBOX=yes), claude-code-acp offers its
      // bypass mode and so passes its CLI a flag the CLI refuses to root unless IS_SANDBOX is "1":
      // session/new then fails. Empty, no bypass mode is offered.
      IS_SANDBOX: "",
    });
    return { kind, command: process.execPath, args: [acpAgentFiles["claude-code"]], env, home, cleanup };
  }
  fs.mkdirSync(path.join(home, ".gemini"), { recursive: true });
  fs.writeFileSync(path.join(home, ".gemini", "settings.json"), JSON.stringify({
    telemetry: { enabled: false },
    privacy: { usageStatisticsEnabled: false },
    general: { disableAutoUpdate: true, disableUpdateNag: true },
    security: { auth: { selectedType: "gemini-api-key" }, folderTrust: { enabled: false } },
  }));
  Object.assign(env, { ...(signedOut ? {} : { GEMINI_API_KEY: "mock-key" }), GOOGLE_GEMINI_BASE_URL: modelBaseUrl, GEMINI_CLI_NO_RELAUNCH: "true" });
  return { kind, command: process.execPath, args: [acpAgentFiles.gemini, "--acp"], env, home, cleanup };
}

export interface AcpPeer {
  transport: AcpTransport;
  /** The chat's client, on the ACP transport as the supervisor wires it. */
  client: RpcClient;
  /** Every event the client saw. */
  events: AgentEvent[];
  /** The agent's throw-away HOME. */
  home: string;
  /** Stops the agent and removes its HOME. */
  stop(): Promise<void>;
}

/** Starts a real ACP agent in `cwd` on a scripted model server, with `files` as the editor's, ready (its session open). */
export async function startAcpPeer(kind: AcpAgentKind, modelBaseUrl: string, cwd: string, files: AcpFileServices, options: Partial<Omit<AcpBridgeOptions, "cwd" | "files">> & { signedOut?: boolean } = {}): Promise<AcpPeer> {
  const launch = acpAgentLaunch(kind, modelBaseUrl, options.signedOut);
  const { signedOut: _signedOut, ...bridgeOptions } = options;
  const transport = await AcpTransport.spawn({ command: launch.command, args: launch.args, cwd, env: launch.env }, { agentName: kind, ...bridgeOptions, files });
  const client = new RpcClient(transport);
  const events: AgentEvent[] = [];
  client.onEvent((event) => events.push(event));
  try {
    await client.request("get_state", {}, { timeoutMs: 60_000 });
  } catch (error) {
    await transport.stop(1000);
    client.dispose();
    transport.dispose();
    await launch.cleanup();
    throw error;
  }
  return {
    transport,
    client,
    events,
    home: launch.home,
    async stop() {
      await transport.stop(1000);
      client.dispose();
      transport.dispose();
      await launch.cleanup();
    },
  };
}
