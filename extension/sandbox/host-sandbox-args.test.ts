import { strict as assert } from "node:assert";
import { hostSandboxArgs } from "./host-sandbox-args";

describe("extension: the bundled host's sandbox options from the settings", () => {
  it("passes each allowed host, the network off; the network on wins; bad entries are named, not passed", () => {
    assert.deepEqual(hostSandboxArgs({ mode: "workspace-write", network: false, allowedHosts: [] }).args, ["--sandbox", "workspace-write"]);
    const proxied = hostSandboxArgs({ mode: "workspace-write", network: false, allowedHosts: ["registry.npmjs.org", " *.github.com ", "pypi.org:443", "*", "a.com,evil.com", 42, "x/y"] });
    assert.deepEqual(proxied.args, ["--sandbox", "workspace-write", "--sandbox-allow-host", "registry.npmjs.org", "--sandbox-allow-host", "*.github.com", "--sandbox-allow-host", "pypi.org:443"]);
    assert.deepEqual(proxied.ignored, ["*", "a.com,evil.com", "42", "x/y"]);
    assert.deepEqual(hostSandboxArgs({ mode: "read-only", network: true, allowedHosts: ["example.com"] }).args, ["--sandbox", "read-only", "--sandbox-network"]);
  });
});
