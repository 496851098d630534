/**
 * One Pi extension (test/fixtures/extensions/agent-hooks.ts: a tool, tool gates, event handlers,
 * commands, session actions, dialogs) run by the real pi 0.87.1 and by our host, through our
 * RpcClient. Each step's extension-visible frames are recorded per agent; the last test requires
 * our host's record to equal pi's.
 */
import { strict as assert } from "node:assert";
import * as fs from "node:fs";
import * as os from "node:os";
import * as path from "node:path";
import type { DialogAnswer, UiNotice } from "../../shared/protocol";
import { RpcError } from "../../shared/rpc";
import { startMockLlm, toolResultMessages, type MockLlm } from "../support/mock-llm";
import { peerVersion } from "../support/peers";
import { assertCleanProtocol, assertStopsCleanly, runPrompt, startPeerClient, type Frame, type PeerClient } from "./peer-client";

const HOOKS = path.resolve(__dirname, "..", "fixtures", "extensions", "agent-hooks.ts");
const KINDS = ["pi", "host"] as const;
type Kind = (typeof KINDS)[number];

/** What a client sees of the extension in one step, without ids, timestamps and run events. */
function extensionFrames(frames: Frame[]): unknown[] {
  return frames.flatMap((f): unknown[] => {
    switch (f.type) {
      case "extension_ui_request": {
        const { id: _id, ...rest } = f;
        return [rest];
      }
      case "extension_error":
      case "session_info_changed":
        return [f];
      case "entry_appended": {
        const entry = f.entry as Record<string, unknown>;
        return entry.type === "custom" ? [{ type: f.type, entry: { type: entry.type, customType: entry.customType, data: entry.data } }] : [];
      }
      case "message_start":
      case "message_end": {
        const { timestamp: _t, ...message } = f.message as Record<string, unknown>;
        return message.role === "custom" ? [{ type: f.type, message }] : [];
      }
      case "tool_execution_end": {
        const result = f.result as { content: unknown };
        return [{ type: f.type, toolCallId: f.toolCallId, content: result.content, isError: f.isError }];
      }
      default:
        return [];
    }
  });
}

const observed: Partial<Record<Kind, Record<string, unknown>>> = {};

for (const kind of KINDS) {
  describe(`a Pi extension's tools, gates, events and commands on ${kind} ${peerVersion(kind)}`, function () {
    let llm: MockLlm;
    let peer: PeerClient;
    const record: Record<string, unknown> = (observed[kind] = {});
    const notices: UiNotice[] = [];

    /** Runs `action`, then a get_state round trip; records the extension frames written meanwhile. */
    async function step(name: string, action: () => Promise<unknown>): Promise<Frame[]> {
      const from = peer.received.length;
      await action();
      await peer.client.request("get_state", {});
      const frames = peer.received.slice(from);
      record[name] = extensionFrames(frames);
      return frames;
    }

    before(async function () {
      llm = await startMockLlm();
      peer = startPeerClient(kind, llm, { extensions: [HOOKS] });
      peer.client.setNoticeHandler((n) => void notices.push(n));
      peer.client.setDialogHandler(async (request): Promise<DialogAnswer> => {
        if (request.title === "Run bash?") return { confirmed: false };
        if (request.title === "Your name") return { value: "Ada" };
        return { cancelled: true };
      });
      await peer.client.probe();
      await peer.client.request("set_auto_retry", { enabled: false });
    });

    after(async function () {
      await peer?.stop();
      await llm?.close();
    });

    it("get_commands lists the extension's commands with source extension and its path", async function () {
      const { commands } = await peer.client.request("get_commands", {});
      const mine = commands.filter((c) => c.sourceInfo?.path === HOOKS);
      assert.deepEqual(mine, ["hooks-note", "hooks-ping", "hooks-arm", "hooks-fail"].map((name) => ({
        name, ...(name === "hooks-note" ? { description: "Take a note" } : {}), source: "extension",
        sourceInfo: { path: HOOKS, source: "cli", scope: "temporary", origin: "top-level" },
      })));
      record.commands = mine;
    });

    it("/hooks-note: a custom entry, the session name, a custom message and an input dialog, before the prompt's response", async function () {
      const frames = await step("note", () => peer.client.request("prompt", { message: "/hooks-note buy milk" }));
      const response = frames.findIndex((f) => f.type === "response" && f.command === "prompt");
      const notify = frames.findIndex((f) => f.type === "extension_ui_request" && f.method === "notify");
      assert.ok(notify >= 0 && notify < response, "the command's notify came after the prompt's response");
      assert.deepEqual(record.note, [
        { type: "entry_appended", entry: { type: "custom", customType: "note", data: { text: "buy milk" } } },
        { type: "session_info_changed", name: "buy milk" },
        { type: "message_start", message: { role: "custom", customType: "note", content: "note: buy milk", display: true, details: { length: 8 } } },
        { type: "message_end", message: { role: "custom", customType: "note", content: "note: buy milk", display: true, details: { length: 8 } } },
        { type: "extension_ui_request", method: "input", title: "Your name", placeholder: "type here" },
        { type: "extension_ui_request", method: "notify", message: "noted by Ada (mode=rpc hasUI=true idle=true)", notifyType: "info" },
      ]);
      assert.equal((await peer.client.request("get_state", {})).sessionName, "buy milk");
    });

    it("the model calls the extension's tool; tool_call gates block bash with reasons the model reads", async function () {
      const first = llm.requests.length;
      llm.enqueue(
        {
          toolCalls: [
            { id: "call_greet", name: "greet", arguments: { name: "world" } },
            { id: "call_rm", name: "bash", arguments: { command: "rm -rf /tmp/pi-extension-test-nothing" } },
            { id: "call_ask", name: "bash", arguments: { command: "echo ask" } },
          ],
        },
        { text: "Done." },
      );
      await step("tools", () => runPrompt(peer, "use your tools"));
      const tools = llm.requests[first]?.body.tools?.map((t) => t.function.name) ?? [];
      assert.ok(tools.includes("greet"), `greet was not offered to the model: ${tools.join(", ")}`);
      const sent = toolResultMessages(llm.requests[first + 1]!).map((m) => [m.tool_call_id, JSON.stringify(m.content)]);
      const byId = Object.fromEntries(sent);
      assert.match(byId.call_greet ?? "", /Hello, World!.*\(checked\)/);
      assert.match(byId.call_rm ?? "", /Blocked by policy: rm -rf/);
      assert.match(byId.call_ask ?? "", /User declined/);
      const steps = record.tools as { type: string; toolCallId?: string }[];
      assert.deepEqual(steps.filter((f) => f.type === "extension_ui_request"), [{ type: "extension_ui_request", method: "confirm", title: "Run bash?", message: "echo ask" }]);
      // Tools run in parallel: compare their results by id.
      record.tools = [...steps].sort((a, b) => String(a.toolCallId).localeCompare(String(b.toolCallId)));
    });

    it("/hooks-arm: a throwing agent_end handler becomes extension_error and the agent goes on", async function () {
      await peer.client.request("prompt", { message: "/hooks-arm" });
      llm.enqueue({ text: "first" }, { text: "second" });
      await step("armed", () => runPrompt(peer, "hello"));
      assert.deepEqual(record.armed, [{ type: "extension_error", extensionPath: HOOKS, event: "agent_end", error: "agent_end failed on purpose" }]);
      const { events } = await runPrompt(peer, "again");
      assert.equal(events.filter((e) => e.type === "extension_error").length, 0);
      assert.equal((await peer.client.request("get_last_assistant_text", {})).text, "second");
    });

    it("/hooks-fail: the command's error is extension_error command:hooks-fail; the prompt still succeeds", async function () {
      await step("fail", () => peer.client.request("prompt", { message: "/hooks-fail" }));
      assert.deepEqual(record.fail, [{ type: "extension_error", extensionPath: "command:hooks-fail", event: "command", error: "command failed on purpose" }]);
    });

    it("a command prompted while streaming runs at once; steer refuses to queue it", async function () {
      llm.enqueue({ text: ["one ", "two ", "three ", "four"], delayMs: 150 });
      const settled = peer.client.waitForSettled(30_000);
      await peer.client.request("prompt", { message: "stream please" });
      await step("busy", () => peer.client.request("prompt", { message: "/hooks-ping" }));
      assert.deepEqual(record.busy, [{ type: "extension_ui_request", method: "notify", message: "ping idle=false" }]);
      await assert.rejects(peer.client.request("steer", { message: "/hooks-ping" }), (e: RpcError) => {
        record.steer = e.message;
        return /Extension command "\/hooks-ping" cannot be queued/.test(e.message);
      });
      await settled;
      assert.equal((await peer.client.request("get_state", {})).isStreaming, false);
    });

    it("wrote only frames that pass checkOutbound; notices reached the notice handler", function () {
      assertCleanProtocol(peer);
      assert.ok(notices.some((n) => n.method === "notify" && n.message === "ping idle=false"));
    });

    it("exits with code 0 when its input ends", async function () {
      await assertStopsCleanly(peer);
    });
  });
}

for (const kind of KINDS) {
  describe(`where ${kind} ${peerVersion(kind)} loads extensions from`, function () {
    let llm: MockLlm;
    let root: string;
    const command = (name: string) => `export default (pi: any) => pi.registerCommand("${name}", { handler() {} });\n`;

    before(async function () {
      llm = await startMockLlm();
      root = fs.mkdtempSync(path.join(os.tmpdir(), `ext-places-${kind}-`));
      fs.mkdirSync(path.join(root, "project", ".pi", "extensions"), { recursive: true });
      fs.writeFileSync(path.join(root, "project", ".pi", "extensions", "from-project.ts"), command("from-project"));
      fs.writeFileSync(path.join(root, "explicit.ts"), command("from-cli"));
      fs.writeFileSync(path.join(root, "broken.ts"), "export default function (pi: any) { throw new Error('factory failed'); }\n");
    });
    after(async function () {
      await llm?.close();
      fs.rmSync(root, { recursive: true, force: true });
    });

    /** The names of the extension commands an agent started with these options lists. */
    async function commandsOf(extraArgs: string[], extensions: string[] = []): Promise<string[]> {
      const peer = startPeerClient(kind, llm, {
        cwd: path.join(root, "project"), extraArgs, extensions,
        prepare: (launch) => {
          fs.mkdirSync(path.join(launch.agentDir, "extensions"), { recursive: true });
          fs.writeFileSync(path.join(launch.agentDir, "extensions", "from-user.ts"), command("from-user"));
        },
      });
      try {
        const { commands } = await peer.client.request("get_commands", {});
        return commands.filter((c) => c.source === "extension" && c.sourceInfo?.source !== "inline").map((c) => `${c.name}:${c.sourceInfo?.scope}`);
      } finally {
        await peer.stop();
      }
    }

    it("project .pi/extensions only with --approve; user extensions; -e still loads with --no-extensions", async function () {
      const explicit = path.join(root, "explicit.ts");
      assert.deepEqual(await commandsOf([]), ["from-user:user"]);
      assert.deepEqual(await commandsOf(["--approve"]), ["from-project:project", "from-user:user"]);
      assert.deepEqual(await commandsOf(["--approve", "--no-extensions"], [explicit]), ["from-cli:temporary"]);
    });

    it("an extension that fails to load stops the agent with exit code 1 and says which one", async function () {
      const broken = path.join(root, "broken.ts");
      const peer = startPeerClient(kind, llm, { extensions: [broken] });
      const exit = await new Promise((resolve) => peer.client.onExit(resolve));
      assert.deepEqual(exit, { code: 1, signal: null });
      assert.match(peer.client.recentStderr, new RegExp(`Failed to load extension "${broken.replace(/[.*+?^${}()|[\]\\]/g, "\\$&")}": .*factory failed`));
      await peer.stop();
    });
  });
}

describe("our host as the VSIX ships it (dist/ without node_modules: esbuild-wasm)", function () {
  let llm: MockLlm;
  let copy: string;
  before(async function () {
    llm = await startMockLlm();
    copy = fs.mkdtempSync(path.join(os.tmpdir(), "host-packaged-"));
    const dist = path.resolve(__dirname, "..", "..", "dist");
    for (const item of packagedDistItems(dist)) fs.cpSync(path.join(dist, item), path.join(copy, item), { recursive: true });
  });
  after(async function () {
    await llm?.close();
    fs.rmSync(copy, { recursive: true, force: true });
  });

  it("compiles the extension with the esbuild-wasm copy (run by the host's own runtime) and runs its tool and commands", async function () {
    const peer = startPeerClient("host", llm, { extensions: [HOOKS], prepare: (launch) => (launch.args[0] = path.join(copy, "agent-host.js")) });
    try {
      peer.client.setDialogHandler(async (): Promise<DialogAnswer> => ({ value: "Ada" }));
      const { commands } = await peer.client.request("get_commands", {});
      assert.deepEqual(commands.filter((c) => c.source === "extension").map((c) => c.name), ["hooks-note", "hooks-ping", "hooks-arm", "hooks-fail"]);
      const notice = peer.waitForFrame((f) => f.type === "extension_ui_request" && f.method === "notify");
      await peer.client.request("prompt", { message: "/hooks-note packaged" });
      assert.equal((await notice).message, "noted by Ada (mode=rpc hasUI=true idle=true)");
      llm.enqueue({ toolCalls: [{ id: "g", name: "greet", arguments: { name: "world" } }] }, { text: "ok" });
      const { events } = await runPrompt(peer, "greet");
      const end = events.find((e) => e.type === "tool_execution_end");
      assert.deepEqual(end?.type === "tool_execution_end" && end.result.content, [{ type: "text", text: "Hello, World!" }, { type: "text", text: " (checked)" }]);
    } finally {
      await peer.stop();
    }
  });
});

describe("our host and pi 0.87.1 on the same extension", function () {
  it("every step shows the client the same extension frames", function () {
    assert.ok(observed.pi && observed.host, "both suites ran");
    assert.deepEqual(observed.host, observed.pi);
  });
});

/** What the VSIX carries of dist/: the `!dist/...` lines of .vscodeignore (files, `dir/**`, `*.ext`). */
function packagedDistItems(dist: string): string[] {
  const ignore = fs.readFileSync(path.resolve(__dirname, "..", "..", ".vscodeignore"), "utf8");
  const patterns = ignore.split("\n").filter((l) => l.startsWith("!dist/")).map((l) => l.slice("!dist/".length).trim());
  const names = fs.readdirSync(dist);
  return patterns.flatMap((p) => {
    if (p.endsWith("/**")) return [p.slice(0, -3)];
    if (!p.includes("*")) return fs.existsSync(path.join(dist, p)) ? [p] : [];
    const re = new RegExp(`^${p.replace(/[.]/g, "\\.").replace(/\*/g, "[^/]*")}$`);
    return names.filter((n) => re.test(n));
  });
}

