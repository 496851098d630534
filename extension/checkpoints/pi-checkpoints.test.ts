import { strict as assert } from "node:assert";
import * as fs from "node:fs";
import * as os from "node:os";
import * as path from "node:path";
import { restorePlan } from "../../shared/checkpoints/restore-plan";
import { CHECKPOINT_DIR_ENV } from "../../shared/checkpoints/schema";
import { readObject, readRecords, recordCaptured } from "../../shared/node/checkpoint-store";
import piCheckpoints from "./pi-checkpoints";

type Handler = (event: { toolName: string; input: unknown }, ctx: unknown) => unknown;

/** Loads the Pi extension as pi would and returns its tool_call handler. */
function load(): Handler {
  let handler: Handler | undefined;
  piCheckpoints({ on: (_event: "tool_call", h: Handler) => (handler = h) } as never);
  assert.ok(handler, "a tool_call handler is registered");
  return handler;
}

describe("pi-checkpoints (the Pi extension loaded into pi with -e)", () => {
  let root: string;
  let store: string;
  const saved = process.env[CHECKPOINT_DIR_ENV];
  beforeEach(() => {
    root = fs.mkdtempSync(path.join(os.tmpdir(), "pi-checkpoints-"));
    store = path.join(root, "store");
    process.env[CHECKPOINT_DIR_ENV] = store;
  });
  afterEach(() => {
    if (saved === undefined) delete process.env[CHECKPOINT_DIR_ENV];
    else process.env[CHECKPOINT_DIR_ENV] = saved;
    fs.rmSync(root, { recursive: true, force: true });
  });

  const ctx = (branch: unknown[]) => ({ cwd: root, sessionManager: { getSessionId: () => "s1", getBranch: () => branch } });
  const userEntry = { type: "message", id: "u1", message: { role: "user" } };

  it("records the file in tool_call, before the tool changes it, under the last user message", () => {
    fs.writeFileSync(path.join(root, "a.txt"), "before");
    const handler = load();
    assert.equal(handler({ toolName: "edit", input: { path: "a.txt" } }, ctx([userEntry, { type: "message", id: "a1", message: { role: "assistant" } }])), undefined);
    fs.writeFileSync(path.join(root, "a.txt"), "after");
    handler({ toolName: "write", input: { path: "@b.txt" } }, ctx([userEntry]));
    handler({ toolName: "read", input: { path: "a.txt" } }, ctx([userEntry]));
    const records = readRecords(store, "s1");
    assert.deepEqual(records.map((r) => [r.turn, path.basename(r.path), r.late]), [["u1", "a.txt", undefined], ["u1", "b.txt", undefined]]);
    assert.equal(readObject(store, records[0].before!)?.toString(), "before");
    assert.equal(records[1].before, null, "b.txt did not exist");
  });

  it("never throws (a throwing tool_call handler would block the tool) and does nothing without a store", () => {
    const handler = load();
    const broken = { cwd: root, sessionManager: { getSessionId: () => "s1", getBranch: () => { throw new Error("no branch"); } } };
    const write = process.stderr.write;
    process.stderr.write = (() => true) as typeof process.stderr.write;
    try {
      assert.equal(handler({ toolName: "write", input: { path: "x.txt" } }, broken), undefined);
    } finally {
      process.stderr.write = write;
    }
    delete process.env[CHECKPOINT_DIR_ENV];
    let registered = false;
    piCheckpoints({ on: () => (registered = true) } as never);
    assert.equal(registered, false);
  });

  it("a record made before the tool wins over the editor's late one; a late one alone says so", () => {
    const file = path.join(root, "a.txt");
    recordCaptured(store, "s1", "u1", file, { content: Buffer.from("before") }, 1000);
    recordCaptured(store, "s1", "u1", file, { content: Buffer.from("after") }, 2000, true);
    const [step] = restorePlan(readRecords(store, "s1"), { turns: new Set(["u1"]) });
    assert.equal(step.action === "write" && readObject(store, step.hash)?.toString(), "before");
    assert.equal(step.action === "write" && step.late, undefined);
    recordCaptured(store, "s2", "u1", file, { content: Buffer.from("after") }, 2000, true);
    const [late] = restorePlan(readRecords(store, "s2"), { turns: new Set(["u1"]) });
    assert.equal(late.action === "write" && late.late, true);
  });
});
