import { strict as assert } from "node:assert";
import * as os from "node:os";
import { AcpTerminals } from "./acp-terminals";

describe("ACP terminals (real processes)", function () {
  this.timeout(20_000);
  const seen: { id: string; text: string }[] = [];
  let terminals: AcpTerminals;
  beforeEach(() => {
    seen.length = 0;
    terminals = new AcpTerminals(os.tmpdir(), { output: (id, text) => seen.push({ id, text }) });
  });
  afterEach(() => terminals.dispose());

  it("runs a command line, reports its output as it comes and its exit code", async () => {
    const { terminalId } = terminals.create({ sessionId: "s", command: "printf 'one\\n'; printf 'two\\n' >&2; exit 3" });
    assert.deepEqual(await terminals.waitForExit(terminalId), { exitCode: 3, signal: null });
    const out = terminals.output(terminalId);
    assert.match(out.output, /one\n/);
    assert.match(out.output, /two\n/);
    assert.equal(out.truncated, false);
    assert.equal(out.exitStatus?.exitCode, 3);
    assert.equal(seen.at(-1)?.text, out.output, "the listener (the tool card) got the whole output");
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

  it("an unknown terminal id is an error, not a crash", () => {
    assert.throws(() => terminals.output("term-99"), /No terminal term-99/);
    terminals.release("term-99");
  });
});
