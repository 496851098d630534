/**
 * Container engines whose API socket lives in home: Docker Desktop for Linux
 * (`~/.docker/desktop/docker.sock`), Rancher Desktop (`~/.rd/docker.sock`), colima
 * (`~/.colima/<profile>/docker.sock`). A path socket is reachable whatever the network namespace,
 * and an engine's API runs a container with the host's / mounted: the sandbox hid the sockets of
 * /run and those the environment names only, and a command connected to these. Real bwrap, real
 * sockets listening on the host.
 */
import { strict as assert } from "node:assert";
import { spawn } from "node:child_process";
import { mkdirSync, mkdtempSync, realpathSync, rmSync, writeFileSync } from "node:fs";
import { createServer, type Server } from "node:net";
import { dirname, join } from "node:path";
import { CommandSandbox } from "../../shared/node/sandbox";

describe("sandbox: container engines' sockets in home", function () {
  this.timeout(60_000);
  let home: string;
  const servers: Server[] = [];
  beforeEach(() => (home = realpathSync(mkdtempSync("/var/tmp/pi-engines-"))));
  afterEach(() => {
    for (const server of servers.splice(0)) server.close();
    rmSync(home, { recursive: true, force: true });
  });

  it("are out of a command's reach (home or a project of it as the workspace)", async () => {
    const sockets = [".docker/desktop/docker.sock", ".rd/docker.sock", ".colima/default/docker.sock"].map((name) => join(home, name));
    writeFileSync(join(home, ".netrc"), "x\n");
    mkdirSync(join(home, "proj"));
    for (const socket of sockets) {
      mkdirSync(dirname(socket), { recursive: true });
      const server = createServer((connection) => connection.end("ENGINE-API\n")).listen(socket);
      servers.push(server);
      await new Promise((resolve) => server.once("listening", resolve));
    }
    const probe = `for (const path of process.argv.slice(1)) require("net").connect(path).on("data", (d) => console.log("REACHED " + path + " " + d)).on("error", () => console.log("refused " + path));`;
    for (const workspace of [join(home, "proj"), home]) {
      const sandbox = new CommandSandbox({ mode: "workspace-write", network: false, workspaceRoot: workspace, writableRoots: [] }, { ...process.env, HOME: home });
      try {
        const found = await sandbox.probe();
        assert.ok(found.ok);
        await sandbox.prepare();
        const wrapped = sandbox.wrap(found, [process.execPath, "-e", probe, ...sockets], workspace);
        // Not spawnSync: the sockets' servers answer from this process's event loop.
        const child = spawn(wrapped.file, wrapped.args, { stdio: ["ignore", "pipe", "pipe"] });
        let out = "";
        child.stdout.on("data", (chunk: Buffer) => (out += chunk.toString()));
        child.stderr.on("data", (chunk: Buffer) => (out += chunk.toString()));
        await new Promise((resolve) => child.on("close", resolve));
        wrapped.release();
        assert.doesNotMatch(out, /REACHED/);
        assert.equal((out.match(/refused /g) ?? []).length, sockets.length, out);
      } finally {
        sandbox.dispose();
      }
    }
  });
});
