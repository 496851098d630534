import { strict as assert } from "node:assert";
import { spawnSync } from "node:child_process";
import { join } from "node:path";
import { parseCli } from "./cli-options";

const host = join(__dirname, "../../dist/agent-host.js");

describe("agent host command line", () => {
  it("accepts pi's --offline and --verbose without a warning, and they change nothing", () => {
    const plain = parseCli(["--mode", "rpc"], "", "");
    const both = parseCli(["--mode", "rpc", "--offline", "--verbose"], "", "");
    assert.equal(both.kind, "run");
    assert.deepEqual(both, plain);
  });

  it("says in --help that --offline and --verbose have no effect, and lists no option it ignores as working", () => {
    const run = spawnSync(process.execPath, [host, "--help"], { encoding: "utf8" });
    assert.equal(run.status, 0, run.stderr);
    const listed = run.stdout.split("\n").filter((line) => /^\s+-/.test(line)).join("\n");
    assert.doesNotMatch(listed, /--offline|--verbose/);
    assert.match(run.stdout, /Accepted and ignored: --offline \(this host makes no network requests but the model's\), --verbose/);
  });

  it("takes --sandbox-allow-host, repeated or comma-separated, and refuses one that is no host pattern", () => {
    const parsed = parseCli(["--sandbox", "workspace-write", "--sandbox-allow-host", "registry.npmjs.org", "--sandbox-allow-host=*.github.com,pypi.org:443"], "", "");
    assert.equal(parsed.kind, "run");
    if (parsed.kind === "run") {
      assert.deepEqual(parsed.options.sandboxAllowHosts, ["registry.npmjs.org", "*.github.com", "pypi.org:443"]);
      assert.equal(parsed.options.sandboxNetwork, false);
    }
    for (const bad of ["*", "evil.com/x", "user@evil.com", "a.com:99999"]) {
      const refused = parseCli(["--sandbox-allow-host", bad], "", "");
      assert.equal(refused.kind, "exit", bad);
      if (refused.kind === "exit") assert.equal(refused.code, 2);
    }
  });
});
