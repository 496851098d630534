// Dialogs and editor host tools under fault, in the real editor with the bundled agent: each
// dialog kind cancelled from its chat card, select/confirm/input timed out, an edit review that
// nobody answers (the host tool times out) and one aborted mid-call. Each case ends cleanly: the
// agent gets its default answer or a tool error, the native prompt and the review close, the
// agent is idle again and has started no process that is left over. The deactivation cases are
// in zz-deactivate.test.ts (the extension can be deactivated once).
import * as assert from "node:assert/strict";
import * as fs from "node:fs";
import * as path from "node:path";
import * as vscode from "vscode";
import { messageText, toolResultMessages } from "../../support/mock-llm";
import { eventually } from "./agent-fixture";
import { chatText, chatView, openChat } from "./chat-support";
import { printFigures } from "./figures";
import { useBundledHost, type HostFixture } from "./host-fixture";
import { reviewTabs, writeWorkspaceFile } from "./host-tools-support";
import { requireUi, ui } from "./ui";

const card = (method: string, state = "open") => `.item-dialog[data-method="${method}"][data-state="${state}"]`;
const defaults: Record<string, string> = { select: "undefined", confirm: "false", input: "undefined", editor: "undefined" };

/** Processes the agent started that are still running. */
function children(pid: number): number[] {
  try {
    return fs.readFileSync(`/proc/${pid}/task/${pid}/children`, "utf8").trim().split(/\s+/).filter(Boolean).map(Number);
  } catch {
    return [];
  }
}

describe("faults: dialogs and host tools", function () {
  this.timeout(180_000);
  let host: HostFixture;
  const results: { name: string; hang: boolean; orphans: number; error?: string }[] = [];
  /** What the agent's extension reported with notify (what each dialog resolved to). */
  const seen = new Set<string>();
  /** Resolves when the extension reports `message`; call it before the case starts. */
  const notified = (message: string): Promise<void> => {
    seen.delete(message);
    const reported = eventually(`the notice "${message}"`, () => seen.has(message) || undefined, 15_000).then(() => undefined);
    reported.catch(() => undefined); // awaited by the case; not an unhandled rejection meanwhile
    return reported;
  };

  before(async function () {
    requireUi(this);
    host = await useBundledHost();
    const repo = vscode.extensions.getExtension("pi-agent.pi-agent-vscode")!.extensionPath;
    const config = vscode.workspace.getConfiguration("pi");
    await config.update("agent.args", ["-e", path.join(repo, "test/fixtures/extensions/ui-faults.ts")], vscode.ConfigurationTarget.Global);
    await config.update("agent.env", { ...config.get<Record<string, string>>("agent.env"), PI_HOST_TOOL_TIMEOUT_MS: "3000" }, vscode.ConfigurationTarget.Global);
    await eventually("the agent to restart", async () => api().supervisor.status === "idle" && (await api().supervisor.ensureStarted()) !== undefined);
    await (await api().supervisor.ensureStarted()).request("set_auto_retry", { enabled: false });
    api().supervisor.onAttach((client, lifetime) => lifetime.add(client.onUiRequest((r) => r.method === "notify" && seen.add(r.message))));
    await openChat();
  });
  after(async () => {
    await host?.dispose();
  });
  const api = () => host.api;

  const run = async (name: string, body: () => Promise<void>) => {
    const pid = api().supervisor.pid;
    try {
      await vscode.commands.executeCommand("notifications.clearAll"); // a toast per case: older ones must not hide it
      await body();
      await eventually("the agent to be idle", async () => api().supervisor.status === "idle" && !(await host.state()).isStreaming);
      assert.equal(api().supervisor.pid, pid, "the same agent process goes on");
      results.push({ name, hang: false, orphans: pid ? children(pid).length : 0 });
    } catch (error) {
      const message = error instanceof Error ? error.message : String(error);
      results.push({ name, hang: /Timed out|timed out/.test(message), orphans: 0, error: message });
      await ui.screenshot(`failed-fault-${name.replace(/\W+/g, "-")}`);
    }
  };

  it("ends every case cleanly: no hang, no leftover UI, no orphan process", async () => {
    for (const kind of ["select", "confirm", "input", "editor"]) {
      await run(`${kind} cancelled from its card`, async () => {
        const reported = notified(`fault ${kind}: ${defaults[kind]}`);
        const done = api().chat.prompt(`/fault ${kind}`);
        await chatText(`the ${kind} card`, `${card(kind)} [data-action="cancel"]`);
        await ui.clickInWebview(chatView, `${card(kind)} [data-action="cancel"]`);
        await chatText(`the ${kind} card cancelled`, card(kind, "cancelled"));
        await reported;
        await done;
        await ui.waitForSelector(".quick-input-widget", "hidden");
        await eventually("the scratch editor to close", () => !vscode.window.visibleTextEditors.some((e) => e.document.isUntitled && e.document.getText() === "fault prefill"));
      });
    }
    for (const kind of ["select", "confirm", "input"]) {
      await run(`${kind} timed out`, async () => {
        const reported = notified(`fault ${kind}: ${defaults[kind]}`);
        const done = api().chat.prompt(`/fault ${kind} 1500`);
        await chatText(`the ${kind} card`, card(kind));
        assert.equal(await chatText(`the ${kind} card timed out`, `${card(kind, "timedOut")} .dialog-outcome`), "Timed out");
        await reported;
        await done;
        await ui.waitForSelector(".quick-input-widget", "hidden");
      });
    }
    const review = async (whileWaiting: () => Promise<void>) => {
      writeWorkspaceFile("src/faults.txt", "hello\n");
      const { llm } = host;
      const count = llm.requests.length;
      llm.enqueue({ toolCalls: [{ id: `edit${count}`, name: "editor_edit", arguments: { path: "src/faults.txt", edits: [{ oldText: "hello", newText: "bye" }] } }] });
      await api().chat.prompt("edit the file");
      await eventually("the edit review to open", () => reviewTabs().length > 0);
      await whileWaiting();
      await eventually("the review to close", () => reviewTabs().length === 0);
      await eventually("the agent to be idle", () => api().supervisor.status === "idle");
      const doc = vscode.workspace.textDocuments.find((d) => d.uri.fsPath.endsWith("faults.txt"));
      assert.ok(!doc || doc.getText() === "hello\n", "the buffer is unchanged");
      return llm.requests.slice(count + 1).flatMap((r) => toolResultMessages(r).filter((m) => m.tool_call_id === `edit${count}`).map(messageText));
    };
    await run("edit review unanswered: the host tool times out", async () => {
      const sent = await review(async () => undefined);
      assert.match(sent.join("\n"), /did not answer within 3 s/);
    });
    await run("edit review aborted mid-call", async () => {
      await review(async () => void (await vscode.commands.executeCommand("pi.abort")));
    });

    const hangs = results.filter((r) => r.hang).length;
    const orphans = results.reduce((n, r) => n + r.orphans, 0);
    const failed = results.filter((r) => r.error);
    printFigures(`cases ${results.length}, passed ${results.length - failed.length}, hangs ${hangs}, orphans ${orphans}`);
    assert.deepEqual(failed.map((r) => `${r.name}: ${r.error}`), []);
    assert.equal(orphans, 0);
  });
});
