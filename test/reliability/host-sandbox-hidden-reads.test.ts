// The home's secrets (`~/.ssh`, `~/.aws`, …) are hidden from the model's bash by the sandbox; the
// bundled host's own file tools run outside it and read them anyway where the workspace reaches
// them: home opened as the workspace, or `pi.permissions.workspaceOnly` off. Found by the
// session-19 review (docs/trust-model.md, Known gaps); each `it` failed before the file tools
// learnt to leave alone what the sandbox hides (agent-host/tools/hidden-paths.ts). Real bundled
// host over RPC, real bubblewrap and ripgrep, the scripted LLM.
import { strict as assert } from "node:assert";
import { cpSync, existsSync, mkdirSync, rmSync, symlinkSync, writeFileSync } from "node:fs";
import { dirname, join } from "node:path";
import type { MockToolCall } from "../support/mock-llm";
import { peerLaunch, type PeerLaunch } from "../support/peers";
import { useScriptedSuite } from "./scripted-suite";
import { RawHost, type Frame } from "./raw-host";

let ids = 0;
const nextId = () => `h${++ids}`;

function put(path: string, content: string): void {
  mkdirSync(dirname(path), { recursive: true });
  writeFileSync(path, content);
}

/** Secrets the sandbox hides, each holding a word no other file holds. */
const secrets = { ".ssh/id_ed25519": "HIDDEN-SSH-KEY", ".aws/credentials": "HIDDEN-AWS-KEY", ".docker/config.json": "HIDDEN-DOCKER-AUTH", ".git-credentials": "HIDDEN-GIT-TOKEN" };

describe("agent host under a sandbox: the file tools leave alone what it hides from bash", function () {
  this.timeout(120_000);
  const suite = useScriptedSuite();

  /** `agentDirInHome`: Pi's agent dir (PI_CODING_AGENT_DIR) moved to that folder of home. */
  async function hostOver(options: { homeIsWorkspace: boolean; agentDirInHome?: string }) {
    const launch: PeerLaunch = peerLaunch("host", { mockBaseUrl: suite.llm.baseUrl });
    suite.undo(() => launch.cleanup());
    const cwd = launch.cwd;
    const home = options.homeIsWorkspace ? cwd : join(cwd, "..", `home-${ids}`);
    suite.undo(() => options.homeIsWorkspace || rmSync(home, { recursive: true, force: true }));
    for (const [name, word] of Object.entries(secrets)) put(join(home, name), `${word}\n`);
    put(join(cwd, "notes.txt"), "HIDDEN-NOT: a plain file\n");
    const args = [...launch.args, "--permission-mode", "auto", "--sandbox", "workspace-write", "--tools", "read,bash,grep,find,ls,write", "--confirm-tools", "bash,write", ...(options.homeIsWorkspace ? ["--workspace-only"] : [])];
    const agentDir = options.agentDirInHome === undefined ? launch.agentDir : join(home, options.agentDirInHome);
    if (agentDir !== launch.agentDir) cpSync(launch.agentDir, agentDir, { recursive: true });
    const host = new RawHost(launch.command, args, { env: { ...launch.env, HOME: home, PI_CODING_AGENT_DIR: agentDir }, cwd });
    suite.undo(() => host.stop());
    await host.request({ id: nextId(), type: "set_auto_retry", enabled: false });
    return { host, cwd, home, agentDir };
  }

  async function turn(host: RawHost, calls: MockToolCall[]) {
    suite.llm.enqueue(...calls.map((call) => ({ toolCalls: [call] })), { text: "done" });
    const { from } = await host.promptAnswering(nextId(), "go", () => "Deny");
    const ends = host.frames.slice(from).filter((f) => f.type === "tool_execution_end") as (Frame & { toolName: string; result: { content: { text?: string }[] } })[];
    return ends.map((end) => `${end.toolName}: ${end.result.content.map((c) => c.text ?? "").join("")}`);
  }

  const leaked = (results: string[]) => results.filter((r) => Object.values(secrets).some((word) => r.includes(word)) || /id_ed25519|credentials|config\.json/.test(r.replace(/^(read|ls|write): Refused.*$/s, "")));

  it("home opened as the workspace: read, grep, find and ls (directly, through links, from above) get nothing of ~/.ssh, ~/.aws, ~/.docker/config.json, ~/.git-credentials", async () => {
    const { host, cwd } = await hostOver({ homeIsWorkspace: true });
    symlinkSync(".ssh", join(cwd, "keys"));
    symlinkSync(".aws/credentials", join(cwd, "creds"));
    const [control] = await turn(host, [{ name: "bash", arguments: { command: "cat .ssh/id_ed25519 .aws/credentials .git-credentials 2>&1; ls -a .ssh" } }]);
    assert.doesNotMatch(control ?? "", /HIDDEN-/, `control: the sandbox hides them from bash: ${control}`);
    const results = await turn(host, [
      { name: "read", arguments: { path: ".ssh/id_ed25519" } },
      { name: "read", arguments: { path: `${cwd}/.aws/credentials` } },
      { name: "read", arguments: { path: "keys/id_ed25519" } },
      { name: "read", arguments: { path: "creds" } },
      { name: "read", arguments: { path: "~/.git-credentials" } },
      { name: "grep", arguments: { pattern: "HIDDEN-" } },
      { name: "grep", arguments: { pattern: "HIDDEN-", path: ".ssh" } },
      { name: "grep", arguments: { pattern: "HIDDEN-", path: ".docker", context: 2 } },
      { name: "find", arguments: { pattern: "*" } },
      { name: "find", arguments: { pattern: "*cred*" } },
      { name: "ls", arguments: { path: ".ssh" } },
      { name: "ls", arguments: { path: "keys" } },
    ]);
    assert.equal(results.length, 12, results.join("\n"));
    assert.deepEqual(leaked(results), [], "what the sandbox hides, read by the host's tools");
    // The rest of home is still searchable: the plain file is found.
    assert.match(results[5] ?? "", /notes\.txt:1: HIDDEN-NOT/, results[5]);
    assert.match(results[8] ?? "", /notes\.txt/, results[8]);
  });

  it("workspaceOnly off: ~/.ssh and ~/.aws are not read, written or listed from outside the workspace either", async () => {
    const { host, home } = await hostOver({ homeIsWorkspace: false });
    const results = await turn(host, [
      { name: "read", arguments: { path: `${home}/.ssh/id_ed25519` } },
      { name: "grep", arguments: { pattern: "HIDDEN-", path: home } },
      { name: "find", arguments: { pattern: "*", path: `${home}/.aws` } },
      { name: "write", arguments: { path: `${home}/.ssh/authorized_keys`, content: "ssh-ed25519 AAAA attacker\n" } },
    ]);
    assert.equal(results.length, 4, results.join("\n"));
    assert.deepEqual(leaked(results), [], "what the sandbox hides, read by the host's tools");
    assert.ok(!existsSync(join(home, ".ssh/authorized_keys")), `write added a key to ~/.ssh/authorized_keys: ${results[3]}`);
  });

  // Pi's models.json holds API keys (or the command that prints one) and mcp-auth.json the MCP
  // servers' OAuth tokens, beside auth.json in ~/.pi/agent: only auth.json was hidden.
  it("Pi's models.json and mcp-auth.json (API keys, MCP sign-ins) are hidden like its auth.json: bash, read and grep get nothing", async () => {
    const { host, home } = await hostOver({ homeIsWorkspace: true });
    put(join(home, ".pi/agent/models.json"), '{ "providers": { "corp": { "apiKey": "HIDDEN-MODELS-KEY" } } }\n');
    put(join(home, ".pi/agent/mcp-auth.json"), '{ "mcp__x|https://x/": { "tokens": { "access_token": "HIDDEN-MCP-TOKEN" } } }\n');
    const results = await turn(host, [
      { name: "bash", arguments: { command: "cat .pi/agent/models.json .pi/agent/mcp-auth.json 2>&1; grep -r HIDDEN-M .pi 2>&1; echo ." } },
      { name: "read", arguments: { path: ".pi/agent/models.json" } },
      { name: "read", arguments: { path: "~/.pi/agent/mcp-auth.json" } },
      { name: "grep", arguments: { pattern: "HIDDEN-M", path: ".pi" } },
    ]);
    assert.equal(results.length, 4, results.join("\n"));
    assert.deepEqual(results.filter((r) => /HIDDEN-M(ODELS|CP)/.test(r)), [], "Pi's keys read");
  });

  // PI_CODING_AGENT_DIR puts Pi's agent dir elsewhere (~/.config/pi-agent here): its auth.json,
  // models.json and mcp-auth.json were hidden only under ~/.pi/agent.
  it("Pi's auth.json, models.json and mcp-auth.json in a PI_CODING_AGENT_DIR elsewhere are hidden too: bash, read and grep get nothing", async () => {
    const { host, agentDir } = await hostOver({ homeIsWorkspace: true, agentDirInHome: ".config/pi-agent" });
    put(join(agentDir, "auth.json"), '{ "corp": { "type": "api_key", "key": "HIDDEN-AGENTDIR-AUTH" } }\n');
    put(join(agentDir, "mcp-auth.json"), '{ "mcp__x|https://x/": { "tokens": { "access_token": "HIDDEN-AGENTDIR-MCP" } } }\n');
    const results = await turn(host, [
      { name: "bash", arguments: { command: `cat ${agentDir}/auth.json ${agentDir}/models.json ${agentDir}/mcp-auth.json 2>&1; grep -r HIDDEN-AGENTDIR ${agentDir} 2>&1; echo .` } },
      { name: "read", arguments: { path: ".config/pi-agent/auth.json" } },
      { name: "read", arguments: { path: ".config/pi-agent/models.json" } },
      { name: "grep", arguments: { pattern: "HIDDEN-AGENTDIR|apiKey", path: agentDir } },
    ]);
    assert.equal(results.length, 4, results.join("\n"));
    assert.deepEqual(results.filter((r) => /HIDDEN-AGENTDIR|"apiKey"/.test(r)), [], "Pi's keys read");
  });
});
