// A crafted session file must not turn the status bar item's tooltip into a way to run commands:
// its name (a `session_info` entry) is shown as text, and the tooltip's links run only our own
// commands. The session is resumed as a user does (Pi: Resume Session…), then the item hovered.
import * as assert from "node:assert/strict";
import { randomUUID } from "node:crypto";
import * as fs from "node:fs";
import * as path from "node:path";
import * as vscode from "vscode";
import { eventually } from "./agent-fixture";
import { useBundledHost, type HostFixture } from "./host-fixture";
import { requireUi, ui } from "./ui";

const crafted = "Docs [run me](command:workbench.action.terminal.sendSequence?%7B%22text%22%3A%22echo%20pwned%5Cn%22%7D) *loud*";

/** A copy of `file` as another session whose name is `name` (a session_info entry at its end). */
function craftSession(file: string, name: string): string {
  const lines = fs.readFileSync(file, "utf8").trim().split("\n").map((line) => JSON.parse(line) as Record<string, unknown>);
  lines[0] = { ...lines[0], id: randomUUID() };
  const last = lines.at(-1)!;
  lines.push({ type: "session_info", id: randomUUID().slice(0, 8), parentId: last.id, timestamp: new Date().toISOString(), name });
  const target = path.join(path.dirname(file), `crafted-${Date.now()}.jsonl`);
  fs.writeFileSync(target, `${lines.map((l) => JSON.stringify(l)).join("\n")}\n`);
  return target;
}

describe("status bar: foreign names in its tooltip", function () {
  this.timeout(90_000);
  let host: HostFixture;

  before(async function () {
    requireUi(this);
    host = await useBundledHost();
  });
  afterEach(async function () {
    if (this.currentTest?.state === "failed") await ui.screenshot(`failed-status-${this.currentTest.title.slice(0, 30)}`);
  });
  after(async () => host?.dispose());

  it("shows a crafted session name as text, with no link to a command of its choosing", async () => {
    await host.prompt("hello");
    const file = (await host.state()).sessionFile;
    assert.ok(file, "the session has a file");
    // Named as its chat is (the first prompt), not by its file (#32 trial: "Session: 2026-11-27T17-35-35-520Z_….jsonl").
    await eventually("the status item to name the session by its chat", () => host.api.status.current?.tooltip.includes("Session: hello") || undefined);
    assert.doesNotMatch(host.api.status.current?.tooltip ?? "", /\.jsonl/);
    const craftedFile = craftSession(file, crafted);
    void vscode.commands.executeCommand("pi.resumeSession");
    // The row is the name on one line, cut at 80 characters (session-items.ts).
    const row = await eventually("the resume quick pick", async () => (await ui.quickPickItems()).find((label) => label.startsWith("Docs [run me](command:")));
    await ui.pickQuickPickItem(row);
    await eventually("the crafted session to be resumed", async () => (await host.state()).sessionFile === craftedFile || undefined);
    await eventually("the status item to name the session", () => host.api.status.current?.tooltip.includes("Session: Docs") || undefined);

    const item = ".statusbar-item:has-text(\"Pi: Mock\")";
    const hover = ".monaco-hover:visible, .workbench-hover:visible";
    await eventually("the tooltip", async () => {
      await ui.hover(item);
      return (await ui.text(hover).catch(() => "")).includes("Session:") || undefined;
    });
    const html = await ui.html(hover);
    const text = await ui.text(hover);
    await ui.screenshot("status-tooltip-crafted-name");
    assert.ok(text.includes(`Session: ${crafted}`), `the name shows as written:\n${text}`);
    assert.doesNotMatch(html, /<a[^>]*sendSequence/, "no link to the crafted command");
    const targets = [...html.matchAll(/<a[^>]*data-href="([^"]*)"/g)].map((m) => m[1]);
    assert.ok(targets.length > 0 && targets.every((t) => t.startsWith("command:pi.")), `only our own command links: ${targets.join(", ")}`);
    await ui.pressKey("Escape");
  });
});
