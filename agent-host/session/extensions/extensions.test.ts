/**
 * Pi extensions in a real HostSession driven by the faux model: tools the model calls, tool
 * gates, event handlers, commands, session actions and ctx.ui through a recording UI bridge.
 */
import { strict as assert } from "node:assert";
import { existsSync, mkdirSync, mkdtempSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { dirname, join } from "node:path";
import type { AgentEvent as WireEvent, DialogAnswer } from "../../../shared/protocol";
import { setFauxScript, type FauxTurn } from "../../ai/faux";
import { stream } from "../../ai/stream";
import type { Context, Model, ToolResultMessage } from "../../ai/types";
import { Agent } from "../../agent/agent";
import { convertToLlm } from "../../agent/convert-to-llm";
import { createTool } from "../../tools";
import { HostSession } from "../host-session/host-session";
import { SessionManager } from "../persistence/session-manager";
import { defaultSettings } from "../settings";
import { createUiContext, ExtensionLoadFailure, loadExtensions, type DialogSpec, type ExtensionHost } from ".";

let models = 0;
function fauxModel(script: FauxTurn[] | ((context: Context) => FauxTurn)): Model {
  const id = `ext-faux-${++models}`;
  setFauxScript(id, script);
  return { id, name: id, api: "faux", provider: "faux", baseUrl: "", reasoning: false, input: ["text"], cost: { input: 0, output: 0, cacheRead: 0, cacheWrite: 0 }, contextWindow: 100_000, maxTokens: 1000 };
}

const lastToolResults = (context: Context): ToolResultMessage[] => {
  const at = context.messages.map((m) => m.role).lastIndexOf("assistant");
  return context.messages.slice(at + 1).filter((m): m is ToolResultMessage => m.role === "toolResult");
};
const textOf = (m: { content: readonly unknown[] }) => m.content.map((c) => (c as { text?: string }).text ?? "").join("");

/** The extension used by most tests (written to <agentDir>/extensions/hooks.ts). */
const HOOKS = `
import { Type } from "@sinclair/typebox";
export default function (pi: any) {
  let armed = false;
  pi.registerTool({
    name: "greet", label: "Greet", description: "Greets someone", parameters: Type.Object({ name: Type.String() }),
    async execute(id: string, params: { name: string }, signal: AbortSignal | undefined, onUpdate: any, ctx: any) {
      onUpdate?.({ content: [{ type: "text", text: "thinking of a greeting" }] });
      return { content: [{ type: "text", text: "Hello, " + params.name + "!" }], details: { mode: ctx.mode, hasUI: ctx.hasUI, idle: ctx.isIdle(), signal: signal === ctx.signal } };
    },
  });
  pi.on("tool_call", async (event: any, ctx: any) => {
    if (event.toolName === "greet" && event.input.name === "world") event.input.name = "World";
    if (event.toolName !== "bash") return;
    if (event.input.command.includes("rm -rf")) return { block: true, reason: "Blocked by policy: rm -rf" };
    if (event.input.command.includes("ask")) {
      const ok = await ctx.ui.confirm("Run bash?", event.input.command);
      if (!ok) return { block: true, reason: "User declined" };
    }
    if (event.input.command.includes("explode")) throw new Error("gate exploded");
  });
  pi.on("tool_result", (event: any) => event.toolName === "greet" ? { content: [...event.content, { type: "text", text: " (checked)" }] } : undefined);
  pi.on("agent_end", () => { if (armed) { armed = false; throw new Error("agent_end failed on purpose"); } });
  pi.on("input", (event: any) => event.text === "secret" ? { action: "handled" } : event.text.startsWith("shout ") ? { action: "transform", text: event.text.slice(6).toUpperCase() } : undefined);
  pi.registerCommand("arm", { description: "Make the next agent_end handler throw", handler: () => { armed = true; } });
  pi.registerCommand("fail", { handler: async () => { throw new Error("command failed on purpose"); } });
  pi.registerCommand("note", { description: "Take a note", handler: async (args: string, ctx: any) => {
    pi.appendEntry("note", { text: args });
    pi.setSessionName(args);
    pi.sendMessage({ customType: "note", content: "note: " + args, display: true });
    const name = await ctx.ui.input("Your name", "type here");
    ctx.ui.notify("idle=" + ctx.isIdle() + " name=" + name + " commands=" + pi.getCommands().map((c: any) => c.name).join(","));
  } });
  pi.registerCommand("trigger", { handler: (args: string) => pi.sendMessage({ customType: "trigger", content: args }, { triggerTurn: true }) });
}`;

interface Harness {
  root: string;
  cwd: string;
  session: HostSession;
  host: ExtensionHost;
  events: WireEvent[];
  dialogs: DialogSpec[];
  notices: unknown[];
  hookPath: string;
  prompt(text: string): Promise<void>;
  dispose(): void;
}

async function start(script: FauxTurn[] | ((context: Context) => FauxTurn), options: { files?: Record<string, string>; trusted?: boolean; answer?: (d: DialogSpec) => DialogAnswer } = {}): Promise<Harness> {
  const root = mkdtempSync(join(tmpdir(), "ext-session-"));
  roots.push(root);
  const cwd = join(root, "work");
  const agentDir = join(root, "agent");
  mkdirSync(cwd, { recursive: true });
  for (const [rel, text] of Object.entries(options.files ?? { "agent/extensions/hooks.ts": HOOKS })) {
    mkdirSync(dirname(join(root, rel)), { recursive: true });
    writeFileSync(join(root, rel), text);
  }
  const model = fauxModel(script);
  const agent = new Agent({ model, tools: [createTool("bash", cwd)], stream, convertToLlm });
  const session = new HostSession({ agent, sessions: new SessionManager({ cwd }), settings: { ...defaultSettings, retry: { ...defaultSettings.retry, enabled: false } } });
  const events: WireEvent[] = [];
  session.onEvent((e) => events.push(e));
  const dialogs: DialogSpec[] = [];
  const notices: unknown[] = [];
  const bridge = {
    dialog: async (spec: DialogSpec) => (dialogs.push(spec), options.answer?.(spec) ?? { cancelled: true as const }),
    notice: (spec: unknown) => void notices.push(spec),
  };
  const host = await loadExtensions({
    session, cwd, agentDir, ui: createUiContext(bridge), projectTrusted: options.trusted ?? false, noExtensions: false, explicit: [],
    models: { available: () => [model], find: () => model, scoped: () => [] }, resourceCommands: () => [], shutdown: () => undefined,
    warn: () => undefined, compiler: "native",
  });
  const prompt = async (text: string) => {
    if (await host.runCommand(text)) return;
    session.prompt(text);
    await session.waitForSettled();
  };
  return { root, cwd, session, host, events, dialogs, notices, hookPath: join(agentDir, "extensions", "hooks.ts"), prompt, dispose: () => rmSync(root, { recursive: true, force: true }) };
}

const roots: string[] = [];
after(() => roots.forEach((root) => rmSync(root, { recursive: true, force: true })));

const ofType = <K extends WireEvent["type"]>(events: WireEvent[], type: K) => events.filter((e): e is Extract<WireEvent, { type: K }> => e.type === type);

describe("Pi extensions in an agent session (faux model)", function () {
  this.timeout(20_000);
  let h: Harness | undefined;
  afterEach(() => h?.dispose());

  it("a tool registered by an extension is called by the model; tool_call may change its input, tool_result its result", async () => {
    let turn = 0;
    h = await start((ctx) => (turn++ === 0 ? { toolCalls: [{ id: "g1", name: "greet", arguments: { name: "world" } }] } : { text: `model saw: ${textOf(lastToolResults(ctx)[0]!)}` }));
    await h.prompt("greet the world");
    const end = ofType(h.events, "tool_execution_end").find((e) => e.toolCallId === "g1");
    assert.deepEqual(end?.result, {
      content: [{ type: "text", text: "Hello, World!" }, { type: "text", text: " (checked)" }],
      details: { mode: "rpc", hasUI: true, idle: false, signal: true },
    });
    assert.equal(end?.isError, false);
    assert.deepEqual(ofType(h.events, "tool_execution_update").map((e) => e.partialResult), [{ content: [{ type: "text", text: "thinking of a greeting" }] }]);
    const last = h.session.agent.messages.at(-1);
    assert.equal(last?.role === "assistant" && textOf(last), "model saw: Hello, World! (checked)");
  });

  it("a tool_call handler blocks bash with a reason the model reads; the command never runs", async () => {
    const marker = join(tmpdir(), `ext-blocked-${process.pid}-${Date.now()}`);
    let seen: ToolResultMessage[] = [];
    let turn = 0;
    h = await start((ctx) => {
      if (turn++ === 0) return { toolCalls: [{ id: "b1", name: "bash", arguments: { command: `rm -rf /nothing; touch ${marker}` } }, { id: "b2", name: "bash", arguments: { command: "echo explode" } }] };
      seen = lastToolResults(ctx);
      return { text: "understood" };
    });
    await h.prompt("clean up");
    assert.equal(existsSync(marker), false, "the blocked command ran");
    assert.deepEqual(seen.map((m) => [m.toolCallId, textOf(m), m.isError]), [["b1", "Blocked by policy: rm -rf", true], ["b2", "gate exploded", true]]);
    // A throwing tool_call handler blocks (fail-safe) without an extension_error, as in pi.
    assert.deepEqual(ofType(h.events, "extension_error"), []);
  });

  it("a tool_call handler can ask the user (ctx.ui.confirm) before a call runs", async () => {
    let turn = 0;
    let seen: ToolResultMessage[] = [];
    h = await start((ctx) => (turn++ === 0 ? { toolCalls: [{ id: "a1", name: "bash", arguments: { command: "echo ask-first" } }] } : ((seen = lastToolResults(ctx)), { text: "ok" })), {
      answer: () => ({ confirmed: false }),
    });
    await h.prompt("run it");
    assert.deepEqual(h.dialogs, [{ method: "confirm", title: "Run bash?", message: "echo ask-first" }]);
    assert.deepEqual(seen.map((m) => textOf(m)), ["User declined"]);
  });

  it("a throwing handler becomes an extension_error event and the agent goes on", async () => {
    h = await start([{ text: "first" }, { text: "second" }]);
    await h.prompt("/arm");
    await h.prompt("hello");
    const errors = ofType(h.events, "extension_error");
    assert.deepEqual(errors, [{ type: "extension_error", extensionPath: h.hookPath, event: "agent_end", error: "agent_end failed on purpose" }]);
    await h.prompt("again");
    assert.equal(ofType(h.events, "agent_settled").length, 2);
    assert.deepEqual(h.session.agent.messages.filter((m) => m.role === "assistant").map((m) => m.role === "assistant" && textOf(m)), ["first", "second"]);
  });

  it("commands: listed with source and path, run with their arguments, a failure is extension_error command:<name>", async () => {
    h = await start([{ text: "unused" }], { answer: () => ({ value: "Ada" }) });
    assert.deepEqual(h.host.commands().map((c) => [c.name, c.source, c.sourceInfo?.path, c.sourceInfo?.scope]), [
      ["arm", "extension", h.hookPath, "user"], ["fail", "extension", h.hookPath, "user"], ["note", "extension", h.hookPath, "user"], ["trigger", "extension", h.hookPath, "user"],
    ]);
    assert.equal(await h.host.runCommand("/fail"), true);
    assert.equal(await h.host.runCommand("/unknown thing"), false);
    assert.deepEqual(ofType(h.events, "extension_error"), [{ type: "extension_error", extensionPath: "command:fail", event: "command", error: "command failed on purpose" }]);

    await h.prompt("/note  buy milk ");
    const types = h.events.filter((e) => e.type !== "extension_error").map((e) => e.type);
    assert.deepEqual(types, ["entry_appended", "session_info_changed", "message_start", "message_end"]);
    const appended = ofType(h.events, "entry_appended")[0]?.entry;
    assert.deepEqual(appended && { type: appended.type, customType: "customType" in appended && appended.customType, data: "data" in appended && appended.data }, { type: "custom", customType: "note", data: { text: "buy milk" } });
    assert.equal(h.session.sessions.name, "buy milk");
    assert.deepEqual(h.session.sessions.allEntries().filter((e) => e.type === "custom_message").map((e) => e.type === "custom_message" && e.content), ["note: buy milk"]);
    assert.deepEqual(h.dialogs, [{ method: "input", title: "Your name", placeholder: "type here" }]);
    assert.deepEqual(h.notices, [{ method: "notify", message: "idle=true name=Ada commands=arm,fail,note,trigger" }]);
  });

  it("sendMessage with triggerTurn starts a run with the custom message; input handlers transform or swallow prompts", async () => {
    const asked: string[] = [];
    h = await start((ctx) => {
      const last = ctx.messages.at(-1);
      asked.push(last ? textOf(last as { content: unknown[] }) : "");
      return { text: "ok" };
    });
    await h.prompt("/trigger look at this");
    await h.session.waitForSettled();
    assert.deepEqual(asked, ["look at this"]);
    assert.deepEqual(await h.host.input("secret", undefined), { action: "handled" });
    assert.deepEqual(await h.host.input("shout hi", undefined), { action: "transform", text: "HI" });
    assert.deepEqual(await h.host.input("plain", undefined), { action: "continue" });
  });

  it("project extensions load only when the project is trusted", async () => {
    const files = { "work/.pi/extensions/project.ts": "export default (pi: any) => pi.registerCommand('from-project', { handler() {} });" };
    h = await start([], { files });
    assert.deepEqual(h.host.commands(), []);
    h.dispose();
    h = await start([], { files, trusted: true });
    assert.deepEqual(h.host.commands().map((c) => [c.name, c.sourceInfo?.scope]), [["from-project", "project"]]);
  });

  it("a factory that throws fails the load with pi's message", async () => {
    const files = { "agent/extensions/bad.ts": "export default () => { throw new Error('factory failed'); };" };
    await assert.rejects(start([], { files }), (e: unknown) => e instanceof ExtensionLoadFailure && /^Failed to load extension ".*bad\.ts": factory failed$/.test(e.message));
  });
});
