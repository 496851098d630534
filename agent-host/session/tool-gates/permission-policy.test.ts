import { strict as assert } from "node:assert";
import { ALLOW_EXACT, ALLOW_ONCE, DENY, allowProgramAnswer, createPermissionGate, harmlessProgramOf, permissionQuestion } from "./permission-policy";

const call = (name: string, args: Record<string, unknown> = { command: "ls" }) => ({ type: "toolCall" as const, id: "c", name, arguments: args });
const bash = (command: string) => call("bash", { command });
const signal = new AbortController().signal;
const cwd = "/work/project";

/** A gate that answers with `pick(options)` and records every question. */
let session = 0;
function gateAnswering(tools: string[], pick: (options: string[]) => string | undefined) {
  const asked: { title: string; options: string[] }[] = [];
  const gate = createPermissionGate(new Set(tools), async (title, options) => (asked.push({ title, options }), pick(options)), { cwd, session: () => session });
  return { gate, asked };
}

describe("permission gate", () => {
  it("asks one question at a time: calls of one turn waiting meanwhile are covered by what the first answer allowed (found by the #32 trial: edit, write, edit each asked after 'any file for this session')", async () => {
    let release: (() => void) | undefined;
    const asked: string[] = [];
    const gate = createPermissionGate(new Set(["write", "edit"]), async (title, options) => {
      asked.push(title);
      await new Promise<void>((resolve) => (release = resolve)); // the user takes a moment
      return options.find((o) => o.includes("any file"));
    }, { cwd, session: () => session });
    const calls = [call("edit", { path: "a.ts", edits: [] }), call("write", { path: "b.ts", content: "x" }), call("edit", { path: "README.md", edits: [] })];
    const results = calls.map((c) => gate(c, signal));
    await new Promise((resolve) => setImmediate(resolve));
    release!();
    assert.deepEqual(await Promise.all(results), [undefined, undefined, undefined]);
    assert.equal(asked.length, 1, asked.join("\n"));
  });

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
    const verdict = await createPermissionGate(new Set(["bash"]), async () => undefined, { cwd })(bash("ls"), aborted.signal);
    assert.ok(verdict?.block && /aborted/.test(verdict.reason), "an aborted run is not called unanswered");
  });

  it("asks a protected write in auto mode under a sandbox (bash cannot write .git/config there), and only then", async () => {
    const titles: string[] = [];
    const gateIn = (sandboxed: boolean) => createPermissionGate(new Set(["bash", "write", "edit"]), async (title) => (titles.push(title), DENY), { cwd, mode: () => "auto", ...(sandboxed ? { sandbox: "workspace-write" as const } : {}) });
    const write = call("write", { path: ".git/config", content: "[core]\n\tfsmonitor = sh -c 'touch /tmp/owned'\n" });
    assert.equal(await gateIn(false)(write, signal), undefined, "auto without a sandbox: nothing asked");
    assert.deepEqual(await gateIn(true)(write, signal), { block: true, reason: "The user denied this write call." });
    assert.match(titles[0] ?? "", /^Allow write of a protected file: \.git\/config\n[^]*fsmonitor = sh -c 'touch \/tmp\/owned'/);
    assert.equal(await gateIn(true)(call("write", { path: "src/a.ts", content: "x" }), signal), undefined, "other files still unasked in auto");
    assert.equal(await gateIn(true)(bash("ls"), signal), undefined, "commands still unasked in auto");
    assert.equal(titles.length, 1);
  });

  it("asks every write in a read-only sandbox, in every mode, once at a time (no allowance covers them)", async () => {
    const titles: string[] = [];
    const gate = createPermissionGate(new Set(["bash", "write", "edit"]), async (title, options) => (titles.push(title), options.includes(ALLOW_ONCE) ? ALLOW_ONCE : DENY), { cwd, mode: () => "acceptEdits", sandbox: "read-only" });
    assert.equal(await gate(call("write", { path: "src/a.ts", content: "x\n" }), signal), undefined);
    assert.equal(await gate(call("edit", { path: "src/a.ts", edits: [] }), signal), undefined);
    assert.equal(titles.length, 2, "Auto-accept edits does not cover a write the sandbox forbids");
    assert.match(titles[0] ?? "", /^Allow write in a read-only sandbox: src\/a\.ts\nThe sandbox lets commands write nothing/);
  });

  it("puts the whole command in the question, however long, newlines and all", async () => {
    const hidden = `${"echo harmless ".repeat(15)}; echo X > file`;
    const question = await permissionQuestion(bash(hidden));
    assert.equal(question.title, `Allow bash to run this command?\n${hidden}`);
    assert.ok(question.title.endsWith("; echo X > file"));
    const script = "cat <<EOF > a\nline\nEOF";
    assert.equal((await permissionQuestion(bash(script))).title, `Allow bash to run this command?\n${script}`);
    const long = "x".repeat(5000);
    assert.ok((await permissionQuestion(call("write", { path: long, content: "" }))).title.endsWith(long));
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

  it("allows a harmless program with any literal arguments, never a command that chains, redirects, expands or substitutes", async () => {
    const { gate, asked } = gateAnswering(["bash"], (options) => options.find((o) => o.includes("with any arguments")));
    assert.equal(await gate(bash("ls -la src"), signal), undefined);
    assert.deepEqual(asked[0].options, [ALLOW_ONCE, allowProgramAnswer("ls"), DENY], "three answers: the session's one names its scope");
    for (const covered of ["ls", "ls -1 'a b'", "ls \"quoted arg\"", "l's' -a", "  ls\t-R  "]) {
      assert.equal(await gate(bash(covered), signal), undefined, covered);
    }
    assert.equal(asked.length, 1);
    const evil = ["ls; evil", "ls && evil", "ls | sh", "ls > /etc/x", "ls $(evil)", "ls `evil`", "ls\nevil", "ls & evil", "lsof", "ls ${X:=y}", "ls $HOME", "ls ~", "ls *", "ls {a,b}", "X=1 ls", "ls 2>/dev/null", "ls <(evil)", "ls $'\\x41'", "\\ls", "ls # c", "(ls)", "ls\r"];
    for (const command of evil) await gate(bash(command), signal);
    assert.equal(asked.length, 1 + evil.length, "each of these is asked about");
  });

  it("drops every allowance when the host goes to another session", async () => {
    session = 0;
    const { gate, asked } = gateAnswering(["bash", "write"], (options) => options.find((o) => o.endsWith("for this session")));
    await gate(bash("npm test"), signal);
    await gate(call("write", { path: "a", content: "" }), signal);
    await gate(bash("npm test"), signal);
    await gate(call("write", { path: "b", content: "" }), signal);
    assert.equal(asked.length, 2);
    session = 1;
    await gate(bash("npm test"), signal);
    await gate(call("write", { path: "b", content: "" }), signal);
    assert.equal(asked.length, 4, "asked again in the next session");
    session = 0;
    await gate(bash("echo x"), signal);
    await gate(bash("npm test"), signal);
    assert.equal(asked.length, 6, "going back does not bring the first session's allowances back");
  });

  it("offers one allowance for file changes, for any file, covering edits and writes alike and no command", async () => {
    const { gate, asked } = gateAnswering(["write", "edit", "bash"], (options) => options.find((o) => o.includes("any file") || o === ALLOW_EXACT));
    assert.equal(await gate(call("write", { path: "src/a.ts", content: "1" }), signal), undefined);
    assert.deepEqual(asked[0].options, [ALLOW_ONCE, "Allow changes to any file for this session", DENY]);
    assert.equal(await gate(call("edit", { path: "src/a.ts", edits: [] }), signal), undefined, "an edit, after writes were allowed");
    assert.equal(await gate(call("write", { path: "src/b.ts", content: "" }), signal), undefined, "another file");
    assert.equal(asked.length, 1);
    await gate(bash("cat src/a.ts"), signal);
    assert.equal(asked.length, 2, "a file allowance allows no command");
  });

  it("offers 'with any arguments' only for harmless programs in one simple literal command; others get the exact command", async () => {
    for (const command of ["ls -la", "cat a.txt", "grep -rn TODO src", "wc -l 'a file'", "head -n 5 x"]) assert.ok(await harmlessProgramOf(command), command);
    const exactOnly = [
      "git status", "git grep TODO", "git log --oneline", "find . -name '*.md'", "rg TODO", "sed -n 1p x", "awk '{print}' x", "xargs ls", "env ls", "npm test", "npx x", "make",
      "python3 -c 1", "node -e 1", "tar tf x.tar", "sort -o x y", "uniq a b", "tee x", "file -C", "xxd a b", "tree -o x", "date -s 1", "diff -l a b", "bash -c ls", "sudo ls", "unknown-tool",
      "/bin/ls", "./ls", "LS", "\uff4cs", "ls\u00a0-la",
    ];
    for (const command of exactOnly) {
      assert.equal(await harmlessProgramOf(command), undefined, command);
      const question = await permissionQuestion(bash(command));
      assert.deepEqual(question.options, [ALLOW_ONCE, "Allow this exact command for this session", DENY], command);
    }
  });
});
