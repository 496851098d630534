// Changing the configured agent while a conversation is open, as the #32 trial did (shots 041-046),
// key by key as the Settings editor writes them: the bundled host → pi given as `node` + its
// cli.js (no --mode of the user's: ours must follow the script, node refused "bad option: --mode")
// → omp sandboxed (it was handed pi's session file, outside its sandbox, and exited 1). Each
// ends with one chat on the new agent: nothing of the old one's conversation, no failure left
// over from the settings in between. A start that fails shows once in the chat, in one line that
// says what failed (not a stack's tail), and goes when a start succeeds; no toast outlives it.
import * as assert from "node:assert/strict";
import * as fs from "node:fs";
import * as path from "node:path";
import * as vscode from "vscode";
import type { PiExtensionApi } from "../../../extension/main";
import { assertPeerInstalled, peerLaunch, type PeerLaunch } from "../../support/peers";
import { eventually } from "./agent-fixture";
import { chatView, openChat } from "./chat-support";
import { configureAgent as configure, useBundledHost, type HostFixture } from "./host-fixture";
import { requireUi, ui } from "./ui";

const config = () => vscode.workspace.getConfiguration("pi");
const failureToast = '.notifications-toasts .notification-toast:has-text("did not start")';

const envOf = (launch: PeerLaunch) => Object.fromEntries(["HOME", "PI_CODING_AGENT_DIR", "PATH", "PI_NO_TITLE", "PI_OFFLINE"].flatMap((key) => (launch.env[key] === undefined ? [] : [[key, launch.env[key]]])));
/** The launch as a user writes it: the interpreter's script and the options, without `--mode rpc`, with sessions kept (as the trial). */
const asUserWrites = (args: readonly string[]) => args.filter((arg, i) => arg !== "--mode" && args[i - 1] !== "--mode" && arg !== "--no-session");

/**
 * Ready on that agent. Our host's flavor is "pi" too (it speaks modern Pi), so a restart of the
 * host on the way (the env set before the command) looked like pi ready while the host's
 * conversation was still shown (ci-31); the host alone has permission modes.
 */
async function readyOn(api: PiExtensionApi, agent: "pi" | "omp" | "bundled host"): Promise<void> {
  const isIt = (caps: PiExtensionApi["supervisor"]["capabilities"]) =>
    agent === "bundled host" ? caps?.permissionModes === true : caps?.flavor === agent && caps.permissionModes === false;
  await eventually(`${agent} to be ready`, () => (api.supervisor.status === "idle" && isIt(api.supervisor.capabilities)) || undefined, 60_000);
}

async function transcriptText(): Promise<string> {
  return ui.webviewText(chatView, "#transcript");
}

describe("agent sessions (#32s): another configured agent starts clean in the same chat", function () {
  this.timeout(240_000);
  let host: HostFixture;
  const launches: PeerLaunch[] = [];
  let failing: string | undefined;
  /** The bundled host's agent dir (the fixture's pi.agent.env), to go back to. */
  let hostEnv: Record<string, string> | undefined;

  before(async function () {
    requireUi(this);
    assertPeerInstalled("pi");
    assertPeerInstalled("omp");
    host = await useBundledHost();
    hostEnv = config().inspect<Record<string, string>>("agent.env")?.globalValue;
    await openChat();
  });
  afterEach(async function () {
    if (this.currentTest?.state === "failed") await ui.screenshot(`failed-agent-switch-${this.currentTest.title.slice(0, 40)}`);
  });
  after(async () => {
    await configure(undefined, undefined, hostEnv);
    await host?.dispose();
    for (const launch of launches) launch.cleanup();
    if (failing) fs.rmSync(failing, { recursive: true, force: true });
  });

  it("from the bundled host to pi run by node with its cli.js: pi starts, the host's conversation is gone", async () => {
    const { api } = host;
    await host.prompt("host conversation: remember the word kumquat", "The host heard kumquat.");
    await eventually("the host's reply in the chat", async () => (await transcriptText()).includes("The host heard kumquat.") || undefined);
    const pi = peerLaunch("pi", { mockBaseUrl: host.llm.baseUrl });
    launches.push(pi);
    await configure(pi.command, asUserWrites(pi.args), envOf(pi));
    await readyOn(api, "pi");
    await ui.screenshot("agent-switch-pi");
    const shown = await transcriptText();
    assert.ok(!shown.includes("kumquat"), `nothing of the host's conversation: ${shown.slice(0, 300)}`);
    assert.ok(!shown.includes("did not start"), `no failure left from the settings in between: ${shown.slice(0, 300)}`);
    assert.equal(api.supervisor.startFailure, undefined);
  });

  it("from pi to omp in its sandbox: omp starts (pi's session is not handed to it)", async () => {
    const { api } = host;
    host.llm.enqueue({ text: "Pi heard quince." });
    await api.chat.prompt("pi conversation: remember quince");
    await eventually("pi's reply", async () => (await transcriptText()).includes("Pi heard quince.") || undefined, 30_000);
    assert.ok(api.supervisor.state?.sessionFile, "pi keeps a session file (the one that was reopened by omp)");
    const omp = peerLaunch("omp", { mockBaseUrl: host.llm.baseUrl });
    launches.push(omp);
    await configure(omp.command, asUserWrites(omp.args), envOf(omp));
    await readyOn(api, "omp");
    await ui.screenshot("agent-switch-omp");
    const shown = await transcriptText();
    assert.ok(!shown.includes("quince"), `nothing of pi's conversation: ${shown.slice(0, 300)}`);
    assert.ok(!shown.includes("did not start"), shown.slice(0, 300));
  });

  // #32 trial: Pi: Choose Agent offered the bundled host and ACP agents only, none of the Pi family a user has on PATH.
  it("Choose Agent offers pi and omp; picking Pi starts the pi found on PATH", async () => {
    const { api } = host;
    const pi = peerLaunch("pi", { mockBaseUrl: host.llm.baseUrl });
    launches.push(pi);
    // `pi` on PATH as a user installs it: a launcher of the installed peer (its node and cli.js),
    // in the agent's folder (pi runs sandboxed whole, with a /tmp of its own).
    const bin = path.join(pi.agentDir, "bin");
    fs.mkdirSync(bin);
    fs.writeFileSync(path.join(bin, "pi"), `#!/bin/sh\nexec ${JSON.stringify(pi.command)} ${pi.args.slice(0, 1).map((a) => JSON.stringify(a)).join(" ")} --provider mock --model mock --offline "$@"\n`, { mode: 0o755 });
    const pathBefore = process.env.PATH;
    process.env.PATH = `${bin}${path.delimiter}${pathBefore ?? ""}`;
    try {
      await config().update("agent.env", { ...envOf(pi), PATH: `${bin}${path.delimiter}${pi.env.PATH ?? ""}` }, vscode.ConfigurationTarget.Global);
      const done = vscode.commands.executeCommand("pi.chooseAgent");
      const items = await eventually("the agent picker", async () => {
        const labels = await ui.quickPickItems();
        return labels.includes("Pi") ? labels : undefined;
      });
      assert.ok(items.includes("oh-my-pi"), `omp offered: ${items.join(", ")}`);
      await ui.screenshot("agent-switch-choose-agent");
      await ui.pickQuickPickItem("Pi");
      await done;
      assert.equal(config().get("agent.command"), "pi");
      assert.deepEqual(config().get("agent.args"), []);
      await readyOn(api, "pi");
    } finally {
      process.env.PATH = pathBefore;
    }
  });

  it("a start that fails shows once in the chat, saying what failed; a good start takes it away, no toast left", async () => {
    const { api } = host;
    // In the workspace: the agent runs sandboxed, with a /tmp of its own.
    failing = fs.mkdtempSync(path.join(vscode.workspace.workspaceFolders![0].uri.fsPath, "failing-agent-"));
    const script = path.join(failing, "agent.js");
    // What an agent that cannot start writes: an error, then its stack.
    fs.writeFileSync(script, "console.error('Error: cannot open the session lock: Operation not permitted');\nfor (let i = 0; i < 8; i++) console.error(`    at frame${i} (/x/cli.js:${i}:1)`);\nprocess.exit(1);\n");
    await configure(process.execPath, [script], hostEnv);
    await eventually("the failure in the chat", async () => (await transcriptText()).includes("did not start") || undefined, 30_000);
    // The palette's Restart Agent, with the chat on screen: the chat says it, no toast.
    await vscode.commands.executeCommand("pi.restartAgent");
    await new Promise((resolve) => setTimeout(resolve, 1500));
    await ui.screenshot("agent-switch-failed");
    const shown = await transcriptText();
    assert.equal(shown.split("did not start").length - 1, 1, `one failure in the chat: ${shown}`);
    assert.match(shown, /Error: cannot open the session lock: Operation not permitted/);
    assert.ok(!/at frame\d/.test(shown), `no stack frames: ${shown}`);
    assert.match(shown, /pi\.agent\.command/, "says where to fix it");
    // Failed, not still starting: the header and the status bar say so.
    assert.equal(api.supervisor.status, "crashed");
    assert.doesNotMatch(await ui.webviewText(chatView, "#status"), /Starting/);
    // Said as what happened (#32 trial: "Agent stopped unexpectedly", "Pi: crashed").
    assert.match(await ui.webviewText(chatView, "#status"), /Agent did not start/);
    await ui.waitForSelector('.statusbar-item:has-text("Pi: did not start")');
    await ui.waitForSelector(failureToast, "hidden", 2_000);

    // Back to the bundled host: the failure goes.
    await configure(undefined, undefined, hostEnv);
    await readyOn(api, "bundled host");
    await eventually("the failure to go", async () => !(await transcriptText()).includes("did not start") || undefined);
    await ui.waitForSelector(failureToast, "hidden", 2_000);
  });
});
