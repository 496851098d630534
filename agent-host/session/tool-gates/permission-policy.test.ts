import { strict as assert } from "node:assert";
import { ALLOW_ONCE, DENY, commandPrefix, coveredByPrefix, createPermissionGate, hasShellControl, permissionQuestion } from "./permission-policy";

const call = (name: string, args: Record<string, unknown> = { command: "ls" }) => ({ type: "toolCall" as const, id: "c", name, arguments: args });
const bash = (command: string) => call("bash", { command });
const signal = new AbortController().signal;
const cwd = "/work/project";

/** A gate that answers with `pick(options)` and records every question. */
function gateAnswering(tools: string[], pick: (options: string[]) => string | undefined) {
  const asked: { title: string; options: string[] }[] = [];
  const gate = createPermissionGate(new Set(tools), async (title, options) => (asked.push({ title, options }), pick(options)), cwd);
  return { gate, asked };
}

describe("permission gate", () => {
  it("asks only for listed tools, allows once, and denies on Deny or without an answer", async () => {
    const answers = [DENY, ALLOW_ONCE, undefined];
    const { gate, asked } = gateAnswering(["bash"], () => answers.shift());
    assert.equal(await gate(call("read"), signal), undefined);
    assert.deepEqual(await gate(bash("ls"), signal), { block: true, reason: "The user denied this bash call." });
    assert.equal(await gate(bash("ls"), signal), undefined);
    const unanswered = await gate(bash("ls"), signal);
    assert.ok(unanswered?.block && /not answered/.test(unanswered.reason));
    assert.equal(asked.length, 3);
    assert.equal(asked[0].title, "Allow bash: ls");
    const aborted = new AbortController();
    aborted.abort();
    const verdict = await createPermissionGate(new Set(["bash"]), async () => undefined, cwd)(bash("ls"), aborted.signal);
    assert.ok(verdict?.block && /aborted/.test(verdict.reason), "an aborted run is not called unanswered");
  });

  it("puts the whole command in the question, however long, newlines and all", () => {
    const hidden = `${"echo harmless ".repeat(15)}; echo X > file`;
    const question = permissionQuestion(bash(hidden), cwd);
    assert.equal(question.title, `Allow bash to run this command?\n${hidden}`);
    assert.ok(question.title.endsWith("; echo X > file"));
    const script = "cat <<EOF > a\nline\nEOF";
    assert.equal(permissionQuestion(bash(script), cwd).title, `Allow bash to run this command?\n${script}`);
    const long = "x".repeat(5000);
    assert.ok(permissionQuestion(call("write", { path: long, content: "" }), cwd).title.endsWith(long));
  });

  it("allows this exact command for the session, and asks again for any other", async () => {
    const { gate, asked } = gateAnswering(["bash"], (options) => options.find((o) => o.startsWith("Allow this exact command")));
    assert.equal(await gate(bash("npm test"), signal), undefined);
    assert.equal(await gate(bash("npm test"), signal), undefined);
    assert.equal(asked.length, 1, "the same command is not asked about again");
    await gate(bash("npm test; rm -rf ~"), signal);
    await gate(bash("npm test "), signal);
    assert.equal(asked.length, 3, "a different command is asked about");
  });

  it("allows a prefix the answer names, never a command that chains, redirects or substitutes past it", async () => {
    const { gate, asked } = gateAnswering(["bash"], (options) => options.find((o) => o.includes("starting with")));
    assert.equal(await gate(bash("npm test -- --grep a"), signal), undefined);
    assert.equal(asked[0].options[2], "Allow commands starting with “npm test” for this session");
    for (const covered of ["npm test", "npm test -- --grep b", "npm test 'quoted arg'"]) {
      assert.equal(await gate(bash(covered), signal), undefined, covered);
    }
    assert.equal(asked.length, 1);
    const evil = ["npm test; evil", "npm test && evil", "npm test | sh", "npm test > /etc/x", "npm test $(evil)", "npm test `evil`", "npm test\nevil", "npm test & evil", "npm testx", "npm run build", "npm test ${X:=y}"];
    for (const command of evil) await gate(bash(command), signal);
    assert.equal(asked.length, 1 + evil.length, "each of these is asked about");
  });

  it("scopes edit and write allowances to the file, unless the answer says any file", async () => {
    const { gate, asked } = gateAnswering(["write", "edit"], (options) => options.find((o) => o.includes("of this file")));
    assert.equal(await gate(call("write", { path: "src/a.ts", content: "1" }), signal), undefined);
    assert.deepEqual(asked[0].options, [ALLOW_ONCE, "Allow write of this file for this session", "Allow write of any file for this session", DENY]);
    assert.equal(await gate(call("write", { path: "./src/../src/a.ts", content: "2" }), signal), undefined, "the same file by another spelling");
    assert.equal(await gate(call("write", { path: `${cwd}/src/a.ts`, content: "3" }), signal), undefined, "the same file by its absolute path");
    assert.equal(asked.length, 1);
    await gate(call("write", { path: "src/b.ts", content: "" }), signal);
    await gate(call("edit", { path: "src/a.ts", edits: [] }), signal);
    assert.equal(asked.length, 3, "another file, or another tool on it, is asked about");
    const any = gateAnswering(["write"], (options) => options.find((o) => o.includes("any file")));
    await any.gate(call("write", { path: "a", content: "" }), signal);
    await any.gate(call("write", { path: "b", content: "" }), signal);
    assert.equal(any.asked.length, 1);
  });

  it("offers a prefix only for plain commands of programs that do not run their arguments", () => {
    assert.equal(commandPrefix("git status --short"), "git status");
    assert.equal(commandPrefix("ls -la"), "ls");
    assert.equal(commandPrefix("npm -v"), undefined, "npm alone would cover every npm command");
    for (const command of ["bash -c 'x'", "sudo ls", "env X=1 ls", "xargs rm", "X=1 ls", "ls; rm x", "ls $(pwd)"]) assert.equal(commandPrefix(command), undefined, command);
    assert.equal(commandPrefix(`${"a".repeat(50)} x`), undefined, "too long to read at a glance");
    assert.ok(hasShellControl("a\tb") && hasShellControl("a\rb") && !hasShellControl("a b 'c' \"d\""));
    assert.ok(coveredByPrefix("ls", "ls") && coveredByPrefix("ls -la", "ls") && !coveredByPrefix("lsof", "ls"));
  });
});
