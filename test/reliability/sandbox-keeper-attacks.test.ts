/**
 * A hostile review of the home keeper (shared/node/sandbox/home-keeper.ts), real bwrap and
 * nsenter: what a sandboxed command can do to the programs and the namespaces every later command
 * is started through. Each test failed before its fix.
 */
import { strict as assert } from "node:assert";
import { spawn } from "node:child_process";
import { existsSync, mkdirSync, mkdtempSync, realpathSync, rmSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { CommandSandbox, type SandboxPolicy } from "../../shared/node/sandbox";
import { resetSandboxProbe } from "../../shared/node/sandbox/probe";

describe("sandbox: attacks on the home keeper, with the real bwrap", function () {
  this.timeout(60_000);
  let home: string;
  const sandboxes: CommandSandbox[] = [];

  beforeEach(() => {
    home = realpathSync(mkdtempSync("/var/tmp/pi-keeper-attack-"));
    writeFileSync(join(home, ".netrc"), "machine example.com password SECRET-NETRC\n");
    mkdirSync(join(home, "proj"));
  });
  afterEach(() => {
    for (const sandbox of sandboxes.splice(0)) sandbox.dispose();
    rmSync(home, { recursive: true, force: true });
  });

  function sandboxOf(env: NodeJS.ProcessEnv, policy: Partial<SandboxPolicy> = {}): CommandSandbox {
    const sandbox = new CommandSandbox({ mode: "workspace-write", network: false, workspaceRoot: join(home, "proj"), writableRoots: [], ...policy }, { ...process.env, HOME: home, ...env });
    sandboxes.push(sandbox);
    return sandbox;
  }

  /** One command as the bash tool runs it: prepare, wrap, spawn. */
  async function run(sandbox: CommandSandbox, script: string): Promise<{ out: string; code: number | null; argv: string[] }> {
    const probe = await sandbox.probe();
    assert.ok(probe.ok, probe.ok ? "" : probe.reason);
    await sandbox.prepare();
    const wrapped = sandbox.wrap(probe, ["/bin/sh", "-c", script], join(home, "proj"));
    const child = spawn(wrapped.file, wrapped.args, { stdio: ["ignore", "pipe", "pipe"] });
    let out = "";
    child.stdout.on("data", (chunk: Buffer) => (out += chunk.toString()));
    child.stderr.on("data", (chunk: Buffer) => (out += chunk.toString()));
    const code = await new Promise<number | null>((resolve) => child.on("close", resolve));
    wrapped.sweep();
    wrapped.release();
    return { out, code, argv: [wrapped.file, ...wrapped.args] };
  }

  it("never starts a command through an nsenter a sandboxed command planted on the host's PATH (a bin folder in the workspace)", async () => {
    // The editor's PATH names a folder of the workspace (direnv's PATH_add bin, ~/bin with home as the workspace).
    const bin = join(home, "proj/bin");
    mkdirSync(bin);
    const env = { PATH: `${bin}:/usr/bin:/bin` };
    const planted = join(home, "ESCAPED");
    const plant = `printf '#!/bin/sh\\necho escaped > ${planted}\\nexec /usr/bin/nsenter "$@"\\n' > ${bin}/nsenter && chmod +x ${bin}/nsenter && echo planted`;
    const first = await run(sandboxOf(env), plant);
    assert.match(first.out, /planted/, first.out);
    // The next session: a new sandbox, the same editor's environment.
    const next = await run(sandboxOf(env), "echo ran");
    assert.match(next.out, /ran/, next.out);
    assert.ok(!existsSync(planted), `the planted nsenter ran outside the sandbox: ${next.argv.slice(0, 3).join(" ")}`);
    assert.ok(!next.argv.some((arg) => arg.startsWith(bin)), next.argv.join(" "));
    assert.ok(next.argv.includes("/usr/bin/nsenter"), `in a keeper, through the system's nsenter: ${next.argv.slice(0, 3).join(" ")}`);
  });

  it("never takes a bwrap a sandboxed command planted on the host's PATH (the next host process's probe)", async () => {
    const bin = join(home, "proj/bin");
    mkdirSync(bin);
    const env = { PATH: `${bin}:/usr/bin:/bin` };
    const planted = join(home, "ESCAPED");
    const plant = `printf '#!/bin/sh\\necho escaped > ${planted}\\nexec /usr/bin/bwrap "$@"\\n' > ${bin}/bwrap && chmod +x ${bin}/bwrap && echo planted`;
    try {
      const first = await run(sandboxOf(env), plant);
      assert.match(first.out, /planted/, first.out);
      // A new host process: the probe looks for bwrap again.
      resetSandboxProbe();
      const next = await run(sandboxOf(env), "echo ran");
      assert.match(next.out, /ran/, next.out);
      assert.ok(!existsSync(planted), "the planted bwrap ran outside the sandbox");
      assert.ok(!next.argv.some((arg) => arg.startsWith(bin)), next.argv.join(" "));
    } finally {
      resetSandboxProbe();
    }
  });
});
