import { strict as assert } from "node:assert";
import { ALLOW_ONCE, ALLOW_SESSION, DENY, createPermissionGate } from "./permission-policy";

const call = (name: string, args: Record<string, unknown> = { command: "ls" }) => ({ type: "toolCall" as const, id: "c", name, arguments: args });
const signal = new AbortController().signal;

describe("permission gate", () => {
  it("asks only for listed tools, remembers a session-wide allowance, and denies without an answer", async () => {
    const answers = [DENY, ALLOW_ONCE, ALLOW_SESSION, undefined];
    const titles: string[] = [];
    const gate = createPermissionGate(new Set(["bash"]), async (title) => (titles.push(title), answers.shift()));
    assert.equal(await gate(call("read"), signal), undefined);
    assert.deepEqual(await gate(call("bash"), signal), { block: true, reason: "The user denied this bash call." });
    assert.equal(await gate(call("bash"), signal), undefined);
    assert.equal(await gate(call("bash"), signal), undefined);
    assert.equal(await gate(call("bash"), signal), undefined, "allowed for the session: not asked again");
    assert.equal(titles.length, 3);
    assert.equal(titles[0], "Allow bash? ls");
    const other = createPermissionGate(new Set(["write"]), async () => undefined);
    const verdict = await other(call("write", { path: "a.txt", content: "x" }), signal);
    assert.ok(verdict?.block && /not answered/.test(verdict.reason));
  });
});
