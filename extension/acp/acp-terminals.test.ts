import { strict as assert } from "node:assert";
import * as fs from "node:fs";
import * as os from "node:os";
import * as path from "node:path";
import { AcpTerminals, MAX_OUTPUT_BYTES, MAX_RUNNING, terminalCommandText } from "./acp-terminals";

describe("ACP terminals (real processes)", function () {
  this.timeout(20_000);
  const seen: { id: string; text: string }[] = [];
  let terminals: AcpTerminals;
  let workspace: string;
  beforeEach(() => {
    seen.length = 0;
    workspace = fs.mkdtempSync(path.join(os.tmpdir(), "acp-terminals-"));
    terminals = new AcpTerminals(workspace, { output: (id, text) => seen.push({ id, text }) });
  });
  afterEach(() => {
    terminals.dispose();
    fs.rmSync(workspace, { recursive: true, force: true });
  });
  const chunks = (id: string) => seen.filter((s) => s.id === id).map((s) => s.text).join("");

  it("runs a command line, reports its output as it comes and its exit code", async () => {
    const { terminalId } = terminals.create({ sessionId: "s", command: "printf 'one\\n'; printf 'two\\n' >&2; exit 3" });
    assert.deepEqual(await terminals.waitForExit(terminalId), { exitCode: 3, signal: null });
    const out = terminals.output(terminalId);
    assert.match(out.output, /one\n/);
    assert.match(out.output, /two\n/);
    assert.equal(out.truncated, false);
    assert.equal(out.exitStatus?.exitCode, 3);
    assert.equal(chunks(terminalId), out.output, "the listener (the card, the editor's terminal) got every chunk");
  });

  it("with args, no shell reads the command: metacharacters stay text", async () => {
    const { terminalId } = terminals.create({ sessionId: "s", command: "echo", args: ["a;", "$(whoami)", "|", "b"] });
    await terminals.waitForExit(terminalId);
    assert.equal(terminals.output(terminalId).output, "a; $(whoami) | b\n");
  });

  it("keeps the last outputByteLimit bytes, never splitting a character", async () => {
    const { terminalId } = terminals.create({ sessionId: "s", command: "node", args: ["-e", "process.stdout.write('é'.repeat(1000))"], outputByteLimit: 101 });
    await terminals.waitForExit(terminalId);
    const out = terminals.output(terminalId);
    assert.equal(out.truncated, true);
    assert.ok(Buffer.byteLength(out.output) <= 101);
    assert.match(out.output, /^é+$/, "no broken character at the front");
  });

  it("killAll (Abort) kills a running command and its children", async () => {
    const { terminalId } = terminals.create({ sessionId: "s", command: "sleep 30 & sleep 30; echo never" });
    await new Promise((resolve) => setTimeout(resolve, 200));
    const started = Date.now();
    terminals.killAll();
    const status = await terminals.waitForExit(terminalId);
    assert.ok(Date.now() - started < 5000);
    assert.equal(status.signal, "SIGKILL");
    assert.doesNotMatch(terminals.output(terminalId).output, /never/);
  });

  it("runs in the agent's folder or one inside it; a folder outside (or a symlink out, or a relative one) is refused", async () => {
    fs.mkdirSync(path.join(workspace, "sub"));
    fs.symlinkSync(os.tmpdir(), path.join(workspace, "out"));
    const { terminalId } = terminals.create({ sessionId: "s", command: "pwd", cwd: path.join(workspace, "sub") });
    await terminals.waitForExit(terminalId);
    assert.equal(terminals.output(terminalId).output.trim(), fs.realpathSync(path.join(workspace, "sub")));
    for (const cwd of ["/", os.homedir(), path.join(workspace, ".."), path.join(workspace, "out"), "sub"]) {
      assert.throws(() => terminals.create({ sessionId: "s", command: "touch escaped", cwd }), /outside the workspace/, cwd);
    }
  });

  it("an output flood is kept to our limit whatever the agent asks, at a linear cost", async () => {
    // 20 MB in 4 KB writes (~5,000 chunks), the agent asking to keep 1 TB.
    const { terminalId } = terminals.create({ sessionId: "s", command: "node", args: ["-e", "const b = 'x'.repeat(4095) + '\\n'; for (let i = 0; i < 5120; i++) process.stdout.write(b)"], outputByteLimit: 1e12 });
    const started = process.hrtime.bigint();
    await terminals.waitForExit(terminalId);
    const ms = Number(process.hrtime.bigint() - started) / 1e6;
    const out = terminals.output(terminalId);
    assert.equal(out.truncated, true);
    assert.equal(Buffer.byteLength(out.output), MAX_OUTPUT_BYTES);
    assert.ok(terminals.tail(terminalId, 1000)!.startsWith("…\n"), "the card's view says it was cut");
    assert.ok(Buffer.byteLength(terminals.tail(terminalId, 1000)!) <= 1004);
    console.log(`      20 MB of output in ${seen.length} chunks kept in ${ms.toFixed(0)} ms`);
    assert.ok(ms < 10_000, `${ms} ms`);
  });

  it("a character split between two chunks is not broken", async () => {
    const { terminalId } = terminals.create({ sessionId: "s", command: "node", args: ["-e", "const b = Buffer.from('é'); process.stdout.write(b.subarray(0, 1)); setTimeout(() => process.stdout.write(b.subarray(1)), 100)"] });
    await terminals.waitForExit(terminalId);
    assert.equal(terminals.output(terminalId).output, "é");
  });

  it("a hostile command name is shown with its control characters escaped", () => {
    const shown = terminalCommandText("ls\u001b[2J\u001b]0;root\u0007\u001b]8;;https://x\u0007click\rrm -rf /\u202eexe.txt\tx");
    assert.doesNotMatch(shown, /[\u0000-\u0008\u000b-\u001f\u007f-\u009f\u202e]/);
    assert.equal(shown, "ls\\u001b[2J\\u001b]0;root\\u0007\\u001b]8;;https://x\\u0007click\\u000drm -rf /\\u202eexe.txt\\tx");
  });

  it("a released terminal no longer serves the agent, but its output's end stays for the card (the last 32 of them)", async () => {
    const ids: string[] = [];
    for (let i = 0; i < 40; i++) {
      const { terminalId } = terminals.create({ sessionId: "s", command: "echo", args: [`run-${i}`] });
      await terminals.waitForExit(terminalId);
      terminals.release(terminalId);
      ids.push(terminalId);
    }
    assert.throws(() => terminals.output(ids.at(-1)!), /No terminal/);
    assert.equal(terminals.tail(ids.at(-1)!, 1000), "run-39\n");
    assert.equal(terminals.tail(ids[0]!, 1000), undefined, "the oldest are forgotten");
  });

  it("a flood of terminal/create is refused past 16 commands running at once; one ending makes room", async () => {
    const ids = Array.from({ length: MAX_RUNNING }, () => terminals.create({ sessionId: "s", command: "sleep", args: ["30"] }).terminalId);
    assert.throws(() => terminals.create({ sessionId: "s", command: "sleep", args: ["30"] }), /16 commands are running already/);
    terminals.kill(ids[0]!);
    await terminals.waitForExit(ids[0]!);
    terminals.create({ sessionId: "s", command: "true" });
  });

  it("an unknown terminal id is an error, not a crash", () => {
    assert.throws(() => terminals.output("term-99"), /No terminal term-99/);
    terminals.release("term-99");
  });
});
