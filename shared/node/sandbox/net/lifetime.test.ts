import { strict as assert } from "node:assert";
import { existsSync, mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { dirname, join } from "node:path";
import { CommandSandbox } from "..";

describe("sandbox network: the proxy lives and dies with its sandbox", () => {
  it("starts once at the first prepare, only with allowed hosts, and is closed (folder removed) by dispose", async () => {
    const work = mkdtempSync(join(tmpdir(), "np-life-"));
    try {
      const off = new CommandSandbox({ mode: "workspace-write", network: false, workspaceRoot: work, writableRoots: [] });
      await off.prepare();
      assert.equal(off.proxySocket, undefined, "no allowed hosts: no proxy");
      assert.equal(off.network, "off");
      off.dispose();
      const sandbox = new CommandSandbox({ mode: "workspace-write", network: false, allowedHosts: ["example.com"], workspaceRoot: work, writableRoots: [] });
      assert.equal(sandbox.network, "proxy");
      await Promise.all([sandbox.prepare(), sandbox.prepare()]);
      const socket = sandbox.proxySocket;
      assert.ok(socket && existsSync(socket));
      await sandbox.prepare();
      assert.equal(sandbox.proxySocket, socket, "one proxy per sandbox");
      sandbox.dispose();
      assert.equal(sandbox.proxySocket, undefined);
      assert.equal(existsSync(dirname(socket)), false, "its folder is gone");
      assert.equal(new CommandSandbox({ mode: "read-only", network: true, allowedHosts: ["example.com"], workspaceRoot: work, writableRoots: [] }).network, "on", "the network on wins");
    } finally {
      rmSync(work, { recursive: true, force: true });
    }
  });
});
