// Dialogs and host tools under fault, against the agent host frame by frame: every dialog kind
// cancelled, select/confirm/input timed out (a late answer ignored), a dialog answered twice; a
// host tool aborted mid-call, timed out, answered twice; the input ending (the editor closing)
// while a dialog, a host tool or a shell command waits, SIGTERM mid-command, and the input ending,
// SIGTERM or SIGKILL after commands left processes in the background. No case may hang, and no
// process (the host, the shells it started, what they started) may outlive the host's end.
import { strict as assert } from "node:assert";
import { existsSync, readFileSync } from "node:fs";
import { join, resolve } from "node:path";
import { messageText, startMockLlm, toolResultMessages, type MockLlm } from "../support/mock-llm";
import { peerLaunch, type PeerLaunch } from "../support/peers";
import { gone, RawHost, type Frame } from "./raw-host";

const rounds = Number(process.env.PI_FAULT_ROUNDS ?? 1);
const extension = resolve(__dirname, "../fixtures/extensions/ui-faults.ts");
const slowTool = { name: "slow_tool", description: "Waits for the client.", parameters: { type: "object", properties: {} } };
let ids = 0;
const nextId = () => `r${++ids}`;

const isUi = (method: string) => (f: Frame) => f.type === "extension_ui_request" && f.method === method;
const isNotice = (text: string) => (f: Frame) => f.type === "extension_ui_request" && f.method === "notify" && f.message === text;
const isType = (type: string) => (f: Frame) => f.type === type;

describe(`agent host: dialogs and host tools under fault (${rounds} round${rounds === 1 ? "" : "s"})`, function () {
  this.timeout(120_000 * rounds);
  let llm: MockLlm;
  let launch: PeerLaunch;
  const results: { name: string; ok: boolean; hang: boolean; orphans: number; error?: string }[] = [];

  before(async () => {
    llm = await startMockLlm();
    launch = peerLaunch("host", { mockBaseUrl: llm.baseUrl, extensions: [extension], env: { PI_HOST_TOOL_TIMEOUT_MS: "1000" } });
  });
  after(async () => {
    await llm.close();
    launch.cleanup();
  });

  const start = async () => {
    const host = new RawHost(launch.command, launch.args, { env: launch.env, cwd: launch.cwd });
    await host.request({ id: nextId(), type: "set_auto_retry", enabled: false });
    await host.request({ id: nextId(), type: "set_host_tools", tools: [slowTool] });
    return host;
  };
  /** The host still answers, and is not streaming any more. */
  const responsive = async (host: RawHost) => {
    const state = await host.request({ id: nextId(), type: "get_state" });
    assert.equal((state.data as { isStreaming: boolean }).isStreaming, false);
  };
  const run = async (name: string, body: () => Promise<number | void>) => {
    try {
      const orphans = (await body()) ?? 0;
      results.push({ name, ok: orphans === 0, hang: false, orphans });
    } catch (error) {
      const message = error instanceof Error ? error.message : String(error);
      results.push({ name, ok: false, hang: message.startsWith("hang"), orphans: 0, error: message });
    }
  };

  /** Ends the host; the number of processes (the host, the shells and what they started) still there afterwards. */
  const closingWithin = async (host: RawHost, end: (host: RawHost) => void, shellPids: number[] = []): Promise<number> => {
    end(host);
    const exit = await Promise.race([host.exited, new Promise<undefined>((r) => setTimeout(r, 10_000))]);
    let orphans = 0;
    for (const pid of shellPids) {
      if (await gone(pid)) continue;
      orphans++;
      process.kill(pid, "SIGKILL");
    }
    if (!exit) {
      host.kill("SIGKILL");
      throw new Error(`hang: the host did not exit${orphans ? " and its shell outlived it" : ""}`);
    }
    if (!(await gone(host.pid))) orphans++;
    return orphans;
  };

  it("handles every case without a hang or an orphan process", async () => {
    for (let round = 0; round < rounds; round++) {
      const host = await start();
      const dialog = async (kind: string, answer: (request: Frame) => void, expected: string, args = "") => {
        const from = host.frames.length;
        host.send({ id: nextId(), type: "prompt", message: `/fault ${kind}${args}` });
        const request = await host.waitFor(`${kind} dialog`, isUi(kind), from);
        answer(request);
        await host.waitFor(`the ${kind} result`, isNotice(`fault ${kind}: ${expected}`), from);
        return request;
      };
      const defaults: Record<string, string> = { select: "undefined", confirm: "false", input: "undefined", editor: "undefined" };

      for (const kind of ["select", "confirm", "input", "editor"]) {
        await run(`${kind} cancelled`, async () => {
          await dialog(kind, (r) => host.send({ type: "extension_ui_response", id: r.id, cancelled: true }), defaults[kind]!);
          await responsive(host);
        });
      }
      for (const kind of ["select", "confirm", "input"]) {
        await run(`${kind} timed out, then answered late`, async () => {
          const request = await dialog(kind, () => undefined, defaults[kind]!, " 300");
          assert.equal(request.timeout, 300);
          const from = host.frames.length;
          host.send({ type: "extension_ui_response", id: request.id, ...(kind === "confirm" ? { confirmed: true } : { value: "late" }) });
          await responsive(host);
          assert.equal(host.frames.slice(from).filter(isUi("notify")).length, 0, "the late answer did nothing");
        });
      }
      await run("select answered twice", async () => {
        await dialog("select", (r) => {
          host.send({ type: "extension_ui_response", id: r.id, value: "second" });
          host.send({ type: "extension_ui_response", id: r.id, value: "first" });
        }, '"second"');
        await responsive(host);
      });

      const toolRun = async (respond: (call: Frame) => void) => {
        llm.enqueue({ toolCalls: [{ name: "slow_tool", arguments: {} }] }); // then the default reply
        const from = host.frames.length;
        const requests = llm.requests.length;
        host.send({ id: nextId(), type: "prompt", message: "use the slow tool" });
        const call = await host.waitFor("host_tool_call", isType("host_tool_call"), from);
        respond(call);
        const end = await host.waitFor("the tool's end", (f) => f.type === "tool_execution_end" && f.toolName === "slow_tool", from);
        await host.waitFor("agent_end", isType("agent_end"), from);
        await responsive(host);
        const next = llm.requests[requests + 1];
        return { call, end, from, sentToModel: next ? messageText(toolResultMessages(next).at(-1)!) : undefined };
      };
      await run("host tool aborted mid-call", async () => {
        const { call, end, from } = await toolRun(() => host.send({ id: nextId(), type: "abort" }));
        assert.equal(end.isError, true);
        await host.waitFor("host_tool_cancel", (f) => f.type === "host_tool_cancel" && f.targetId === call.id, from);
      });
      await run("host tool timed out", async () => {
        const { call, from, sentToModel } = await toolRun(() => undefined);
        await host.waitFor("host_tool_cancel", (f) => f.type === "host_tool_cancel" && f.targetId === call.id, from);
        assert.match(sentToModel ?? "", /did not answer within/);
      });
      await run("host tool answered twice", async () => {
        const { sentToModel } = await toolRun((call) => {
          host.send({ type: "host_tool_result", id: call.id as string, result: { content: [{ type: "text", text: "first result" }] } });
          host.send({ type: "host_tool_result", id: call.id as string, result: { content: [{ type: "text", text: "second result" }] } });
        });
        assert.equal(sentToModel, "first result");
      });

      await run("input ends when idle", async () => closingWithin(host, (h) => h.endInput()));

      // The editor closing: the host's input ends (or it gets SIGTERM) while something waits.
      const closing = async (name: string, setup: (host: RawHost) => Promise<number[] | undefined>, end: (host: RawHost) => void) => {
        await run(name, async () => {
          const closingHost = await start();
          const shellPids = await setup(closingHost);
          return closingWithin(closingHost, end, shellPids);
        });
      };
      const waitingDialog = async (h: RawHost) => {
        h.send({ id: nextId(), type: "prompt", message: "/fault confirm" });
        await h.waitFor("confirm dialog", isUi("confirm"));
        return undefined;
      };
      const waitingTool = async (h: RawHost) => {
        llm.enqueue({ toolCalls: [{ name: "slow_tool", arguments: {} }] }); // then the default reply
        h.send({ id: nextId(), type: "prompt", message: "use the slow tool" });
        await h.waitFor("host_tool_call", isType("host_tool_call"));
        return undefined;
      };
      /** The pids written to `pidFile` (one a line) once `count` are there. */
      const pidsIn = async (pidFile: string, count: number) => {
        const deadline = Date.now() + 10_000;
        const read = () => (existsSync(pidFile) ? readFileSync(pidFile, "utf8").split("\n").filter((l) => l.trim()).map(Number) : []);
        while (read().length < count) {
          if (Date.now() > deadline) throw new Error("hang: the command did not start");
          await new Promise((r) => setTimeout(r, 50));
        }
        return read();
      };
      const runningShell = async (h: RawHost) => {
        const pidFile = join(launch.cwd, `shell-${ids}.pid`);
        llm.enqueue({ toolCalls: [{ name: "bash", arguments: { command: `echo $$ > ${pidFile}; exec sleep 60` } }] });
        h.send({ id: nextId(), type: "prompt", message: "run a long command" });
        return pidsIn(pidFile, 1);
      };
      // A finished command that left processes behind (`&`, nohup, a subshell's orphan), and a
      // running one that did the same: none may outlive the host, however it ends.
      const backgroundShells = async (h: RawHost) => {
        const pidFile = join(launch.cwd, `background-${ids}.pid`);
        const leaveBehind = `sleep 61 >/dev/null 2>&1 & echo $! >> ${pidFile}; nohup sleep 62 >/dev/null 2>&1 & echo $! >> ${pidFile}; (sleep 63 >/dev/null 2>&1 & echo $! >> ${pidFile})`;
        llm.enqueue({ toolCalls: [{ name: "bash", arguments: { command: leaveBehind } }] }, { toolCalls: [{ name: "bash", arguments: { command: `${leaveBehind}; echo $$ >> ${pidFile}; exec sleep 60` } }] });
        h.send({ id: nextId(), type: "prompt", message: "start servers" });
        return pidsIn(pidFile, 7);
      };
      await closing("input ends while a dialog waits", waitingDialog, (h) => h.endInput());
      await closing("input ends while a host tool waits", waitingTool, (h) => h.endInput());
      await closing("input ends while a shell command runs", runningShell, (h) => h.endInput());
      await closing("SIGTERM while a shell command runs", runningShell, (h) => h.kill("SIGTERM"));
      await closing("input ends with background processes", backgroundShells, (h) => h.endInput());
      await closing("SIGTERM with background processes", backgroundShells, (h) => h.kill("SIGTERM"));
      await closing("SIGKILL with background processes", backgroundShells, (h) => h.kill("SIGKILL"));
      await closing("SIGKILL while a shell command runs", runningShell, (h) => h.kill("SIGKILL"));
      const extensionExec = async (h: RawHost) => {
        const pidFile = join(launch.cwd, `exec-${ids}.pid`);
        h.send({ id: nextId(), type: "prompt", message: `/fault exec ${pidFile}` });
        return pidsIn(pidFile, 2);
      };
      await closing("SIGKILL while an extension's exec runs (and left a process behind)", extensionExec, (h) => h.kill("SIGKILL"));
    }

    const hangs = results.filter((r) => r.hang).length;
    const orphans = results.reduce((n, r) => n + r.orphans, 0);
    console.log(`      figures: cases ${results.length}, passed ${results.filter((r) => r.ok).length}, hangs ${hangs}, orphans ${orphans}`);
    for (const r of rounds === 1 ? results : results.filter((x) => !x.ok)) console.log(`        ${r.ok ? "ok  " : "FAIL"} ${r.name}${r.error ? `: ${r.error}` : ""}${r.orphans ? ` (${r.orphans} orphan(s))` : ""}`);
    assert.deepEqual(results.filter((r) => !r.ok).map((r) => r.name), []);
    assert.equal(hangs, 0);
    assert.equal(orphans, 0);
  });
});
