// The package a user installs: the harness built it (`npm run package`) and installed it with
// `code-server --install-extension` into this run's extensions folder; no development path
// carries the extension. A smoke journey on the bundled agent: the installed files, the Pi view,
// a prompt and its streamed reply, and a Pi extension (compiled by the VSIX's esbuild-wasm)
// whose select is answered as a quick pick.
import * as assert from "node:assert/strict";
import * as fs from "node:fs";
import * as path from "node:path";
import * as vscode from "vscode";
import { harnessEnv } from "../bridge-protocol";
import { eventually, extensionId } from "../suite/agent-fixture";
import { chatText, chatView, promptBox } from "../suite/chat-support";
import { useBundledHost, type HostFixture } from "../suite/host-fixture";
import { requireUi, ui } from "../suite/ui";

/** dist-test/vscode/vsix/ → the repository, whose dist/ holds the build the VSIX was made from. */
const repoRoot = path.resolve(__dirname, "..", "..", "..");

/** Every file under `dir`, relative to it. */
function filesUnder(dir: string): string[] {
  return fs.readdirSync(dir, { recursive: true, withFileTypes: true })
    .filter((entry) => entry.isFile())
    .map((entry) => path.relative(dir, path.join(entry.parentPath, entry.name)));
}

describe("VSIX: the installed package", function () {
  this.timeout(120_000);
  let host: HostFixture;
  const extension = () => vscode.extensions.getExtension(extensionId)!;

  before(function () {
    requireUi(this);
  });
  after(async () => host?.dispose());

  it("is the extension VS Code loaded, from the run's extensions folder", () => {
    const installed = process.env[harnessEnv.installedExtensions];
    assert.ok(installed, `${harnessEnv.installedExtensions} is set by the harness`);
    assert.ok(extension(), `${extensionId} is installed`);
    const where = fs.realpathSync(extension().extensionPath);
    assert.ok(where.startsWith(fs.realpathSync(installed) + path.sep), `${where} is under ${installed}`);
    assert.ok(!where.startsWith(repoRoot + path.sep), "not the development path");
  });

  it("holds every file the production build wrote (source maps aside)", () => {
    const built = filesUnder(path.join(repoRoot, "dist")).filter((f) => !f.startsWith(`.build${path.sep}`) && !f.endsWith(".map"));
    const shipped = new Set(filesUnder(path.join(extension().extensionPath, "dist")));
    assert.ok(built.length > 20, `only ${built.length} files in dist/: is it built?`);
    assert.deepEqual(built.filter((f) => !shipped.has(f)), [], "files of dist/ missing from the VSIX (.vscodeignore)");
    // vsce stores README, CHANGELOG and LICENSE as readme.md, changelog.md, LICENSE.txt.
    const top = fs.readdirSync(extension().extensionPath).map((f) => f.toLowerCase());
    for (const file of ["readme.md", "changelog.md", "license.txt"]) assert.ok(top.includes(file), `${file} is shipped`);
    for (const file of ["media/icon.png", "dist/THIRD-PARTY-NOTICES.txt"]) {
      assert.ok(fs.existsSync(path.join(extension().extensionPath, file)), `${file} is shipped`);
    }
  });

  it("opens the Pi view, streams a reply to a prompt and asks an extension's question as a quick pick", async () => {
    host = await useBundledHost();
    // A Pi extension: loading it needs the VSIX's esbuild-wasm and extension runtime.
    await vscode.workspace.getConfiguration("pi").update("agent.args", ["-e", path.join(repoRoot, "test/fixtures/extensions/ui-dialogs.ts")], vscode.ConfigurationTarget.Global);
    await host.api.supervisor.restart();
    await host.api.supervisor.ensureStarted();
    const cmdline = fs.readFileSync(`/proc/${host.api.supervisor.pid}/cmdline`, "utf8").split("\0");
    // The script Node runs: its first argument that is not one of Node's options (the host gets --max-semi-space-size=1).
    const script = cmdline.slice(1).find((arg) => !arg.startsWith("-"));
    assert.equal(script, path.join(extension().extensionPath, "dist", "agent-host.js"), "the agent is the VSIX's bundled host");

    await vscode.commands.executeCommand("workbench.action.closeSidebar");
    await ui.click('.activitybar [aria-label^="Pi"]');
    await chatText("the chat to say Ready", "#status", (t) => t === "Ready", 30_000);

    const chunks = ["Installed", " from", " the", " VSIX."];
    host.llm.enqueue({ text: chunks, delayMs: 30 });
    await ui.typeInWebview(chatView, promptBox, "Say where you come from");
    await ui.pressKey("Enter");
    await chatText("the streamed reply", '.item-assistant:not([data-streaming="true"]) .text', (t) => t === chunks.join(""));
    await ui.screenshot("vsix-chat-reply");

    const demo = host.api.chat.prompt("/ui-demo");
    await eventually("the select quick pick", async () => (await ui.quickPickItems()).includes("green") || undefined);
    await ui.pickQuickPickItem("green");
    await eventually("the confirm quick pick", async () => (await ui.quickPickItems()).includes("Yes") || undefined);
    await ui.pickQuickPickItem("Yes");
    await ui.waitForSelector(".quick-input-widget input[placeholder='type here']", "visible");
    await ui.inputBoxType("Ada", true);
    await chatText("the editor card", '.item-dialog[data-method="editor"][data-state="open"] vscode-button[data-action="submit"]');
    await ui.clickInWebview(chatView, '.item-dialog[data-method="editor"][data-state="open"] vscode-button[data-action="submit"]');
    await ui.waitForSelector('.notification-toast:has-text("color=\\"green\\" proceed=true name=\\"Ada\\" text=\\"prefill\\"")', "visible");
    await demo;
    await ui.screenshot("vsix-dialogs-answered");
  });
});
