// Project trust as pi has it (docs/security.md): a folder's .pi/extensions/ loads only with
// --approve, a saved decision in <agentDir>/trust.json (the folder or a parent), or the user's
// defaultProjectTrust "always". Our host and the real pi 0.87.1 are started in the same folder with
// the same agent dir: a decision saved by the editor (shared/node/project-trust) holds for pi, and
// one saved by pi's own trust store holds for our host.
import { strict as assert } from "node:assert";
import { existsSync, mkdirSync, mkdtempSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { pathToFileURL } from "node:url";
import { ProcessTransport } from "../../shared/node/process-transport";
import { resolveProjectTrust, saveTrust, savedTrust } from "../../shared/node/project-trust";
import { RpcClient } from "../../shared/rpc";
import { startMockLlm, type MockLlm } from "../support/mock-llm";
import { assertPeerInstalled, peerDir, peerLaunch, type PeerLaunch } from "../support/peers";

type Agent = "host" | "pi" | "pi-1.5.2";
const AGENTS = ["host", "pi", "pi-1.5.2"] as const;

describe("project trust: saved decisions shared with pi (trust.json, defaultProjectTrust)", function () {
  this.timeout(120_000);
  let llm: MockLlm;
  let root: string;
  let cwd: string;
  const launches = new Map<Agent, PeerLaunch>();
  let agentDir: string;
  let cases = 0;
  let violations = 0;

  before(async () => {
    assertPeerInstalled("pi");
    assertPeerInstalled("pi-1.5.2");
    llm = await startMockLlm();
    root = mkdtempSync(join(tmpdir(), "trust-"));
    cwd = join(root, "projects", "cloned-repo");
    mkdirSync(join(cwd, ".pi", "extensions"), { recursive: true });
    agentDir = join(root, "agent");
    mkdirSync(agentDir);
    for (const agent of AGENTS) {
      const launch = peerLaunch(agent, { mockBaseUrl: llm.baseUrl, cwd, env: { PI_CODING_AGENT_DIR: agentDir, HOME: join(root, "home") } });
      launches.set(agent, launch);
    }
    // Both agents read models.json from the one agent dir.
    const { readFileSync } = await import("node:fs");
    writeFileSync(join(agentDir, "models.json"), readFileSync(join(launches.get("host")!.agentDir, "models.json")));
  });
  after(async () => {
    console.log(`      figures: cases ${cases}, project code loaded against the decision ${violations}`);
    await llm?.close();
    for (const launch of launches.values()) launch.cleanup();
    rmSync(root, { recursive: true, force: true });
  });

  /** Starts the agent with `args`, waits until it answered, stops it: did the project extension run? */
  async function loads(agent: Agent, args: string[] = []): Promise<boolean> {
    const marker = join(root, `loaded-${agent}`);
    rmSync(marker, { force: true });
    writeFileSync(join(cwd, ".pi", "extensions", "project.ts"), `import { writeFileSync } from "node:fs";\nexport default function () { writeFileSync(process.env.PI_TRUST_MARKER ?? "", "loaded"); }\n`);
    const launch = launches.get(agent)!;
    const transport = ProcessTransport.spawn(launch.command, [...launch.args, ...args], { env: { ...launch.env, PI_TRUST_MARKER: marker }, cwd });
    const client = new RpcClient(transport);
    client.setDialogHandler(async () => ({ cancelled: true })); // pi may ask over RPC: no answer is no trust
    try {
      await client.request("get_state", {}, { timeoutMs: 30_000 });
      return existsSync(marker);
    } finally {
      await transport.stop();
      client.dispose();
    }
  }

  async function expectEverywhere(trusted: boolean, what: string): Promise<void> {
    for (const agent of AGENTS) {
      const loaded = await loads(agent);
      cases++;
      if (loaded !== trusted) violations++;
      assert.equal(loaded, trusted, `${agent}: ${what}`);
    }
  }

  it("loads nothing without a decision, and honours --approve / --no-approve over a saved one", async () => {
    rmSync(join(agentDir, "trust.json"), { force: true });
    await expectEverywhere(false, "no decision: nothing loads");
    assert.equal(await loads("host", ["--approve"]), true);
    await saveTrust(agentDir, cwd, true);
    assert.equal(await loads("host", ["--no-approve"]), false);
    cases += 2;
  });

  it("follows a decision the editor saved, for the folder or a parent, in our host and in pi", async () => {
    rmSync(join(agentDir, "trust.json"), { force: true });
    await saveTrust(agentDir, cwd, true);
    await expectEverywhere(true, "saved trusted");
    await saveTrust(agentDir, cwd, false);
    await expectEverywhere(false, "saved not trusted");
    rmSync(join(agentDir, "trust.json"), { force: true });
    await saveTrust(agentDir, join(root, "projects"), true);
    await expectEverywhere(true, "a trusted parent folder");
  });

  for (const pi of ["pi", "pi-1.5.2"] as const) {
    it(`reads what ${pi}'s own trust store saved (pi's /trust), and ${pi} reads ours`, async () => {
      rmSync(join(agentDir, "trust.json"), { force: true });
      const module = join(peerDir(pi), "node_modules/@earendil-works/pi-coding-agent/dist/core/trust-manager.js");
      const { ProjectTrustStore } = (await import(pathToFileURL(module).href)) as { ProjectTrustStore: new (dir: string) => { set(cwd: string, trusted: boolean): void; get(cwd: string): boolean | null } };
      const piStore = new ProjectTrustStore(agentDir);
      piStore.set(cwd, true);
      assert.equal(savedTrust(agentDir, cwd)?.trusted, true);
      assert.equal(await loads("host"), true);
      await saveTrust(agentDir, cwd, false);
      assert.equal(piStore.get(cwd), false);
      cases += 3;
    });
  }

  it("follows the user's defaultProjectTrust when nothing is saved", async () => {
    rmSync(join(agentDir, "trust.json"), { force: true });
    writeFileSync(join(agentDir, "settings.json"), JSON.stringify({ defaultProjectTrust: "always" }));
    try {
      await expectEverywhere(true, "defaultProjectTrust always");
      assert.equal(resolveProjectTrust(undefined, cwd, agentDir, join(root, "home")), true);
    } finally {
      rmSync(join(agentDir, "settings.json"), { force: true });
    }
    assert.equal(violations, 0);
  });
});
