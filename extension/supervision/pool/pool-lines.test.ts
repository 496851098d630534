import { strict as assert } from "node:assert";
import { PassThrough } from "node:stream";
import { PacedLines } from "../../../shared/node/paced-lines";
import type { PoolOutbound } from "../../../shared/protocol/pool";
import { POOL_MAX_LINE_CHARS, PoolLines } from "./pool-lines";

describe("pool: the pool's stdout split by session", () => {
  const setup = () => {
    const got: Record<string, string[]> = { s1: [], s2: [] };
    const sessions = new Map(Object.keys(got).map((id) => [id, { receiveLine: (line: string) => got[id]!.push(line) }]));
    const controls: PoolOutbound[] = [];
    const logs: string[] = [];
    const router = new PoolLines(sessions, (frame) => controls.push(frame), (message) => logs.push(message));
    // As HostPool reads the pool's stdout.
    const stdout = new PassThrough();
    new PacedLines(stdout, { maxLineChars: POOL_MAX_LINE_CHARS, onLine: (line) => router.receiveLine(line) });
    return { got, controls, logs, lines: { push: (text: string) => stdout.write(text) } };
  };

  it("hands each session its own lines as they were, split across chunks, and the control frames checked", async () => {
    const { got, controls, logs, lines } = setup();
    lines.push('s1 {"type":"a b"}\ns2 {"type":"x"}\ns1 {"ty');
    lines.push('pe":"c"}\n! {"type":"stderr","session":"s2","text":"warn"}\n! {"type":"exit","session":"s1","code":1,"error":"boom"}\n');
    await new Promise(setImmediate);
    assert.deepEqual(got, { s1: ['{"type":"a b"}', '{"type":"c"}'], s2: ['{"type":"x"}'] });
    assert.deepEqual(controls, [{ type: "stderr", session: "s2", text: "warn" }, { type: "exit", session: "s1", code: 1, error: "boom" }]);
    assert.deepEqual(logs, []);
  });

  it("refuses a control frame that does not fit its schema, and drops a line for no open session", async () => {
    const { got, controls, logs, lines } = setup();
    lines.push('! {"type":"exit","session":"s1"}\n! {"type":"open","session":"s1"}\n! not json\ns9 {"type":"x"}\n');
    await new Promise(setImmediate);
    assert.deepEqual(controls, []);
    assert.equal(logs.length, 3);
    assert.match(logs[0]!, /refused: Invalid exit: .*code/);
    assert.match(logs[1]!, /Unknown pool frame: open/);
    assert.deepEqual(got, { s1: [], s2: [] });
  });
});
