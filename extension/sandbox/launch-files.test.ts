// Attacks on the check that an agent sandboxed whole does not live where the sandbox puts its own
// /tmp (agent-sandbox.ts): each launch below runs a file under /tmp, which the sandbox would not
// find (bwrap's "execvp …: No such file", node's "Cannot find module"), and the check must name
// it; and a path that only passes through /tmp on its way elsewhere is no such file.
import { strict as assert } from "node:assert";
import { chmodSync, mkdirSync, mkdtempSync, realpathSync, rmSync, symlinkSync, writeFileSync } from "node:fs";
import { join, relative } from "node:path";
import { CommandSandbox } from "../../shared/node/sandbox";
import { launchFiles } from "./launch-files";

describe("an agent sandboxed whole: the files its launch runs, seen or not inside", function () {
  if (process.platform !== "linux") return;
  let tmp: string;
  let home: string;
  let workspace: string;
  let sandbox: CommandSandbox;
  before(() => {
    tmp = realpathSync(mkdtempSync("/tmp/launch-files-"));
    // Home and the workspace outside /tmp, as they are for a user.
    home = realpathSync(mkdtempSync("/var/tmp/launch-files-home-"));
    workspace = join(home, "work");
    mkdirSync(workspace);
    sandbox = new CommandSandbox({ mode: "workspace-write", network: true, workspaceRoot: workspace, writableRoots: [] }, { HOME: home, PATH: "/usr/bin:/bin" });
  });
  after(() => {
    sandbox.dispose();
    rmSync(tmp, { recursive: true, force: true });
    rmSync(home, { recursive: true, force: true });
  });

  const unseen = (launch: { command: string; args?: string[]; env?: NodeJS.ProcessEnv }) =>
    launchFiles({ command: launch.command, args: launch.args ?? [], cwd: workspace, env: launch.env ?? { PATH: "/usr/bin:/bin" } }).find((file) => sandbox.hides(file));

  const script = (dir: string, name: string, text: string) => {
    const file = join(dir, name);
    writeFileSync(file, text);
    chmodSync(file, 0o755);
    return file;
  };

  it("a script under /tmp named with an absolute path, or through a link elsewhere (held before)", () => {
    const agent = script(tmp, "agent.js", "");
    assert.equal(unseen({ command: process.execPath, args: [agent] }), agent);
    const link = join(home, "agent-link.js");
    symlinkSync(agent, link);
    assert.equal(unseen({ command: process.execPath, args: [link] }), link);
  });

  it("a script under /tmp named relative to the workspace", () => {
    const agent = script(tmp, "relative.js", "");
    const arg = relative(workspace, agent);
    assert.ok(arg.startsWith(".."), arg);
    assert.equal(unseen({ command: process.execPath, args: [arg] }), agent);
  });

  it("the interpreter of the program's shebang, absolute or through env, under /tmp", () => {
    const node = join(tmp, "node");
    symlinkSync(process.execPath, node);
    const bin = join(home, "bin");
    mkdirSync(bin, { recursive: true });
    const direct = script(bin, "pi-direct", `#!${node}\nconsole.log("hi")\n`);
    assert.equal(unseen({ command: direct }), node);
    const viaEnv = script(bin, "pi-env", "#!/usr/bin/env -S node --no-warnings\n");
    assert.equal(unseen({ command: viaEnv, env: { PATH: `${tmp}:/usr/bin` } }), node);
    assert.equal(unseen({ command: "pi-env", env: { PATH: `${bin}:${tmp}:/usr/bin` } }), node);
  });

  it("a module node loads first (NODE_OPTIONS --require / --import) under /tmp", () => {
    const hook = script(tmp, "hook.cjs", "");
    assert.equal(unseen({ command: process.execPath, args: ["-e", "0"], env: { PATH: "/usr/bin", NODE_OPTIONS: `--max-old-space-size=512 --require ${hook}` } }), hook);
    assert.equal(unseen({ command: process.execPath, args: ["-e", "0"], env: { PATH: "/usr/bin", NODE_OPTIONS: `--import=${hook}` } }), hook);
  });

  it("a path that passes through /tmp (`/tmp/..`) on its way to home is seen", () => {
    const agent = script(home, "home-agent.js", "");
    const roundabout = `/tmp/..${agent}`;
    assert.equal(unseen({ command: process.execPath, args: [roundabout] }), undefined);
    assert.equal(unseen({ command: `/tmp/..${process.execPath}` }), undefined);
  });
});
