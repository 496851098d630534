/**
 * Session files are interchangeable between our host and pi 0.87.1: what one writes (with
 * --session-dir) the other opens with `--session FILE` and shows as the same conversation
 * (get_messages, get_entries, get_tree, the name) — a plain chat with a tool call and a shell
 * command, forks and clones, a compaction, an in-file branch, a torn last line and the file of a
 * writer killed mid-stream.
 */
import { strict as assert } from "node:assert";
import * as fs from "node:fs";
import * as os from "node:os";
import * as path from "node:path";
import { PARITY_REFERENCE, dropKeys, shape, startParityPeer, textOf, type ParityKind, type ParityOptions, type ParityPeer } from "./parity-support";
import { peerVersion } from "../support/peers";

interface View {
  messages: { role: string; content?: unknown }[];
  entries: { id: string; type: string; parentId: string | null }[];
  tree: unknown;
  leafId: string | null;
  state: Record<string, unknown>;
}

async function viewOf(side: ParityPeer): Promise<View> {
  const { messages } = (await side.ok("get_messages")) as { messages: View["messages"] };
  const { entries, leafId } = (await side.ok("get_entries")) as { entries: View["entries"]; leafId: string | null };
  const { tree } = await side.ok("get_tree");
  return { messages, entries, tree, leafId, state: await side.ok("get_state") };
}

const other = (kind: ParityKind): ParityKind => (kind === "pi" ? "host" : "pi");
const roots: string[] = [];

/** A workspace (kept while the test runs: session headers name it as their cwd) and a session folder. */
function workspace(): { cwd: string; dir: string } {
  const root = fs.mkdtempSync(path.join(os.tmpdir(), "interop-"));
  roots.push(root);
  const cwd = path.join(root, "work");
  const dir = path.join(root, "sessions");
  fs.mkdirSync(cwd);
  return { cwd, dir };
}

/** Runs `script` in a fresh session of `kind`, and returns the session file and what the writer shows at the end. */
async function write(kind: ParityKind, where: { cwd: string; dir: string }, script: (side: ParityPeer) => Promise<void>, options: ParityOptions = {}) {
  const side = await startParityPeer(kind, { ...options, cwd: where.cwd, sessionDir: where.dir });
  try {
    await script(side);
    const view = await viewOf(side);
    return { file: String(view.state.sessionFile), view };
  } finally {
    await side.stop();
  }
}

/** Opens `file` in `kind` and returns what it shows; `then` may continue the session. */
async function load(kind: ParityKind, cwd: string, file: string, then?: (side: ParityPeer) => Promise<void>): Promise<View> {
  const side = await startParityPeer(kind, { cwd, sessionFile: file });
  try {
    const view = await viewOf(side);
    await then?.(side);
    return view;
  } finally {
    await side.stop();
  }
}

function assertSameConversation(loaded: View, written: View, what: string): void {
  assert.deepEqual(loaded.messages, written.messages, `${what}: get_messages`);
  assert.deepEqual(loaded.entries, written.entries, `${what}: get_entries`);
  assert.deepEqual(loaded.tree, written.tree, `${what}: get_tree`);
  assert.equal(loaded.leafId, written.leafId, `${what}: leafId`);
  for (const key of ["sessionId", "sessionName", "messageCount", "sessionFile"]) assert.equal(loaded.state[key], written.state[key], `${what}: ${key}`);
}

/** A chat with a tool call, a user shell command and a name. */
async function chat(side: ParityPeer): Promise<void> {
  side.llm.enqueue({ text: ["Hi", "!"], usage: { promptTokens: 30, completionTokens: 2 } });
  await side.run("hello");
  side.llm.enqueue({ text: "Running it.", toolCalls: [{ id: "call_ls", name: "bash", arguments: { command: "echo tool-output" } }] }, { text: "It printed tool-output." });
  await side.run("run echo");
  await side.ok("bash", { command: "echo shell-output" });
  await side.ok("set_session_name", { name: "Interop" });
}

describe(`session files shared by pi ${peerVersion(PARITY_REFERENCE)} and our host`, function () {
  this.timeout(60_000);
  const compactResults: Partial<Record<ParityKind, Record<string, unknown>>> = {};

  after(() => roots.forEach((root) => fs.rmSync(root, { recursive: true, force: true })));

  for (const writer of ["host", "pi"] as const) {
    const reader = other(writer);

    it(`${writer} writes a chat that ${reader} opens as the same conversation, and continues`, async function () {
      const where = workspace();
      const { file, view } = await write(writer, where, chat);
      assert.deepEqual(view.messages.map((m) => m.role), ["system", "user", "assistant", "user", "assistant", "toolResult", "assistant", "bashExecution"]);
      assert.equal(view.state.sessionName, "Interop");
      const loaded = await load(reader, where.cwd, file, async (side) => {
        side.llm.enqueue({ text: "Continued." });
        await side.run("go on");
      });
      assertSameConversation(loaded, view, `${reader} opening ${writer}'s file`);
      // Back in the writer: the reader's additions are there, after what was written before.
      const back = await load(writer, where.cwd, file);
      assert.deepEqual(back.entries.slice(0, view.entries.length), view.entries);
      // The reader's own system prompt differs from the writer's: it records a patch before its prompt.
      const added = back.messages.slice(view.messages.length);
      assert.deepEqual(added.map((m) => [m.role, m.role === "system" ? "" : textOf(m.content)]), [["system", ""], ["user", "go on"], ["assistant", "Continued."]]);
      assert.ok((added[0] as { sections?: object }).sections, "the patch replaces the writer's sections");
    });

    it(`${writer}'s fork and clone files open in ${reader}`, async function () {
      const where = workspace();
      let original = "";
      const fork = await write(writer, where, async (side) => {
        await chat(side);
        original = String((await side.ok("get_state")).sessionFile);
        const forkable = (await side.ok("get_fork_messages")).messages as { entryId: string; text: string }[];
        assert.deepEqual(forkable.map((m) => m.text), ["hello", "run echo"]);
        assert.deepEqual(await side.ok("fork", { entryId: forkable[1]!.entryId }), { text: "run echo", cancelled: false });
        side.llm.enqueue({ text: "Forked reply." });
        await side.run("instead of echo");
      });
      const forkHeader = JSON.parse(fs.readFileSync(fork.file, "utf8").split("\n")[0]!) as { parentSession?: string };
      assert.equal(forkHeader.parentSession, original, "the fork names its parent session");
      assert.deepEqual(fork.view.messages.filter((m) => m.role === "user").map((m) => textOf(m.content)), ["hello", "instead of echo"]);
      assertSameConversation(await load(reader, where.cwd, fork.file), fork.view, `${reader} opening ${writer}'s fork`);

      const clone = await write(writer, where, async (side) => {
        await chat(side);
        assert.deepEqual(await side.ok("clone"), { cancelled: false });
      });
      assert.equal(clone.view.messages.length, 8);
      assertSameConversation(await load(reader, where.cwd, clone.file), clone.view, `${reader} opening ${writer}'s clone`);
    });

    it(`${writer}'s compacted session opens in ${reader}`, async function () {
      const where = workspace();
      const long = (word: string) => `${word} `.repeat(120);
      const { file, view } = await write(
        writer,
        where,
        async (side) => {
          for (const word of ["alpha", "beta", "gamma"]) {
            side.llm.enqueue({ text: long(word) });
            await side.run(`tell me about ${word}`);
          }
          side.llm.enqueue({ text: "## Goal\nSummary of alpha and beta." });
          compactResults[writer] = await side.ok("compact", { customInstructions: "Keep it short" });
          side.llm.enqueue({ text: "After compaction." });
          await side.run("and now?");
        },
        { settings: { compaction: { enabled: true, keepRecentTokens: 50 } } },
      );
      const compaction = view.entries.find((e) => e.type === "compaction") as { id: string; firstKeptEntryId?: string; summary?: string } | undefined;
      assert.ok(compaction, "a compaction entry was written");
      // keepRecentTokens 50 cuts inside the last turn: the turn's start gets a summary of its own,
      // appended under a heading in each writer's own words (pi: "Turn Context (split turn)").
      assert.match(String(compaction.summary), /^## Goal\nSummary of alpha and beta\.\n\n---\n\n\*\*.+\*\*\n\nOK\.$/);
      assert.ok(view.entries.some((e) => e.id === compaction.firstKeptEntryId), "firstKeptEntryId names an entry");
      const roles = view.messages.map((m) => m.role);
      assert.ok(roles.includes("compactionSummary"), roles.join(","));
      assertSameConversation(await load(reader, where.cwd, file), view, `${reader} opening ${writer}'s compacted file`);
    });
  }

  it("compact answers with the same shape on both", function () {
    assert.ok(compactResults.pi && compactResults.host);
    assert.deepEqual(shape(dropKeys(compactResults.host)), shape(dropKeys(compactResults.pi)));
    for (const kind of ["pi", "host"] as const) {
      const result = compactResults[kind]!;
      assert.ok(String(result.summary).startsWith("## Goal\nSummary of alpha and beta."), kind);
      assert.ok(Number(result.tokensBefore) > Number(result.estimatedTokensAfter), `${kind}: ${String(result.tokensBefore)} > ${String(result.estimatedTokensAfter)}`);
    }
  });

  it("a file with two branches (our host's in-place branch) opens in pi with the same tree", async function () {
    const where = workspace();
    const { file, view } = await write("host", where, async (side) => {
      await chat(side);
      const forkable = (await side.ok("get_fork_messages")).messages as { entryId: string }[];
      await side.ok("branch", { entryId: forkable[1]!.entryId });
      side.llm.enqueue({ text: "Other branch." });
      await side.run("a different second question");
    });
    const branching = view.entries.filter((e) => view.entries.filter((c) => c.parentId === e.id).length > 1);
    assert.equal(branching.length, 1, "one entry has two children");
    assert.deepEqual(view.messages.filter((m) => m.role === "user").map((m) => textOf(m.content)), ["hello", "a different second question"]);
    assertSameConversation(await load("pi", where.cwd, file), view, "pi opening a branched file");
  });

  it("a torn last line is skipped by both; each goes on writing after it", async function () {
    const where = workspace();
    const { file, view } = await write("host", where, chat);
    fs.appendFileSync(file, '{"type":"message","id":"torn0001","parentId":"');
    for (const kind of ["host", "pi"] as const) {
      const loaded = await load(kind, where.cwd, file, async (side) => {
        side.llm.enqueue({ text: `${kind} was here` });
        await side.run(`${kind} after the tear`);
      });
      assert.deepEqual(loaded.messages.slice(0, view.messages.length), view.messages, `${kind}: the conversation up to the tear`);
    }
    const lines = fs.readFileSync(file, "utf8").split("\n").filter(Boolean);
    const unreadable = lines.filter((line) => {
      try {
        JSON.parse(line);
        return false;
      } catch {
        return true;
      }
    });
    assert.deepEqual(unreadable, ['{"type":"message","id":"torn0001","parentId":"'], "only the torn line is unreadable");
    const final = await load("pi", where.cwd, file);
    assert.deepEqual(final.messages.filter((m) => m.role === "user").map((m) => textOf(m.content)), ["hello", "run echo", "host after the tear", "pi after the tear"]);
  });

  it("the file of our host killed (SIGKILL) mid-stream opens in both", async function () {
    const where = workspace();
    const side = await startParityPeer("host", { cwd: where.cwd, sessionDir: where.dir });
    let file: string;
    try {
      side.llm.enqueue({ text: "First answer." });
      await side.run("first");
      file = String((await side.ok("get_state")).sessionFile);
      const from = side.peer.received.length;
      side.llm.enqueue({ text: ["Half an ans", "wer"], hangAfterChunks: true });
      await side.ok("prompt", { message: "second" });
      await side.peer.waitForFrame((f) => f.type === "message_update", from);
      const exited = new Promise((resolve) => side.peer.client.onExit(resolve));
      side.peer.transport.kill("SIGKILL");
      assert.deepEqual(await exited, { code: null, signal: "SIGKILL" });
    } finally {
      await side.stop();
    }
    const [host, pi] = [await load("host", where.cwd, file), await load("pi", where.cwd, file)];
    assert.deepEqual(host.messages.map((m) => [m.role, textOf(m.content)]).slice(1), [["user", "first"], ["assistant", "First answer."], ["user", "second"]]);
    assertSameConversation(pi, host, "pi and our host opening the killed writer's file");
  });
});
