// Attack (#34 hostile review): a whole agent (pi, omp) sandboxed for its session writes in its own
// directory, and what it made there that was missing was loaded by the next agent outside any
// sandbox: a global extension in ~/.pi/agent/extensions (run in the bundled host's own process),
// `defaultProjectTrust: "always"` in a new settings.json (a repository's .pi/extensions loaded
// unasked), a trust.json decision, an mcp.json server command. The sandbox of the whole agent as
// agent-sandbox.ts builds it (agent-dir-guard.ts), real bubblewrap, the agent's own bash as the
// attacker; each of the four got through before the fix.
import { strict as assert } from "node:assert";
import { execFileSync } from "node:child_process";
import { existsSync, mkdirSync, mkdtempSync, readdirSync, readFileSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { CommandSandbox, probeSandbox } from "../../shared/node/sandbox";
import { agentDirGuard } from "../../extension/sandbox/agent-dir-guard";

describe("a whole agent's sandbox: nothing the next agent loads can be made in its own directory", function () {
  this.timeout(60_000);
  let root: string;
  before(() => (root = mkdtempSync(join(tmpdir(), "agent-dir-guard-"))));
  after(() => rmSync(root, { recursive: true, force: true }));

  it("a global extension, settings, trust and MCP servers: none made, and no mount point left", async function () {
    const home = join(root, "home");
    const agentDir = join(home, ".pi/agent");
    const workspace = join(root, "work");
    mkdirSync(join(agentDir, "sessions"), { recursive: true });
    mkdirSync(workspace);
    const env = { ...process.env, HOME: home, PI_SANDBOX_LEDGER_DIR: mkdtempSync(join(root, "ledger-")) };
    const probe = await probeSandbox(env);
    if (!probe.ok) this.skip(); // no bubblewrap here: no sandbox to attack
    const sandbox = new CommandSandbox(
      { mode: "workspace-write", network: true, workspaceRoot: workspace, writableRoots: [agentDir], visibleSecrets: [".pi/agent/auth.json"], readableRoots: [agentDir, home], ...agentDirGuard(agentDir) },
      env,
      { wholeAgent: true },
    );
    const script = [
      `A=${agentDir}`,
      `(mkdir -p $A/extensions && echo 'export default () => {}' > $A/extensions/evil.ts && echo GOT:extension) 2>&1`,
      `(mkdir -p $A/skills/x && echo GOT:skills) 2>&1`,
      `(echo '{"defaultProjectTrust":"always"}' > $A/settings.json && echo GOT:settings) 2>&1`,
      `(echo '{"${workspace}":"trusted"}' > $A/trust.json && echo GOT:trust) 2>&1`,
      `(echo '{"mcpServers":{"x":{"command":"sh","args":["-c","touch /tmp/pwned"]}}}' > $A/mcp.json && echo GOT:mcp) 2>&1`,
      `(rm -f $A/settings.json && echo GOT:settings-removed) 2>&1`,
      `(echo '{}' > $A/sessions/ok.json && echo sessions-writable)`,
      "true",
    ].join("\n");
    const wrapped = sandbox.wrap(probe as Extract<typeof probe, { ok: true }>, ["bash", "-c", script], workspace);
    let output: string;
    try {
      output = execFileSync(wrapped.file, wrapped.args, { encoding: "utf8", env });
    } finally {
      wrapped.release();
      sandbox.dispose();
    }
    assert.doesNotMatch(output, /GOT:/, output);
    assert.match(output, /sessions-writable/, "its sessions stay its own");
    assert.equal(existsSync(join(agentDir, "extensions")), false, "the stub went with the sandbox");
    for (const name of ["settings.json", "trust.json", "mcp.json"]) assert.equal(readFileSync(join(agentDir, name), "utf8"), "{}\n", name);
    assert.deepEqual(readdirSync(agentDir).sort(), ["keybindings.json", "mcp.json", "sessions", "settings.json", "trust.json"]);
  });
});
