import { strict as assert } from "node:assert";
import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { parseCli } from "./cli-options";
import { createHostRuntime } from "./host-runtime";

describe("createHostRuntime", () => {
  let root: string;
  beforeEach(() => (root = mkdtempSync(join(tmpdir(), "host-runtime-"))));
  afterEach(() => rmSync(root, { recursive: true, force: true }));

  it("never changes the environment it is given; settings.json's httpProxy reaches the processes it starts", async () => {
    const agentDir = join(root, "agent");
    mkdirSync(agentDir);
    writeFileSync(join(agentDir, "settings.json"), JSON.stringify({ httpProxy: "http://corp.example:3128" }));
    const env: NodeJS.ProcessEnv = { PATH: process.env.PATH, HOME: root, PI_CODING_AGENT_DIR: agentDir };
    const before = { ...env };
    const processBefore = { HTTP_PROXY: process.env.HTTP_PROXY, HTTPS_PROXY: process.env.HTTPS_PROXY };
    const parsed = parseCli(["--mode", "rpc", "--no-session", "--no-extensions", "--tools", "bash"], "", "");
    assert.equal(parsed.kind, "run");
    if (parsed.kind !== "run") return;
    const runtime = createHostRuntime(parsed.options, { cwd: root, env, send: () => undefined, warn: () => undefined });
    await runtime.ready;
    assert.deepEqual(env, before);
    assert.deepEqual({ HTTP_PROXY: process.env.HTTP_PROXY, HTTPS_PROXY: process.env.HTTPS_PROXY }, processBefore);

    const userBash = await runtime.runBash("printenv HTTP_PROXY", () => undefined, new AbortController().signal);
    assert.equal(userBash.output.trim(), "http://corp.example:3128");
    const bash = runtime.session.agent.tools.find((t) => t.name === "bash")!;
    const result = await bash.execute("call", { command: "printenv HTTPS_PROXY" }, new AbortController().signal, () => undefined);
    assert.match(JSON.stringify(result.content), /http:\/\/corp\.example:3128/);
  });
});
