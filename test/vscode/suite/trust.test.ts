// Workspace and project trust in the editor: in an untrusted workspace no agent starts; granting
// trust starts none by itself; before a folder's .pi/extensions/ may load the user is asked (a
// modal listing what would load), the answer saved in pi's trust.json (shared with the pi CLI);
// the workspace's own settings cannot choose the agent program or widen its permissions. The bundled agent gets --workspace-only (pi.permissions.workspaceOnly, on by default), so
// its file tools refuse a path outside the workspace; with the setting off they do not.
import * as assert from "node:assert/strict";
import * as fs from "node:fs";
import * as path from "node:path";
import * as vscode from "vscode";
import { AgentSupervisor } from "../../../extension/supervision/agent-supervisor";
import { ProjectTrust } from "../../../extension/supervision/project-trust";
import { saveTrust } from "../../../shared/node/project-trust";
import { messageText, toolResultMessages } from "../../support/mock-llm";
import { eventually, extensionId } from "./agent-fixture";
import { printFigures } from "./figures";
import { useBundledHost, type HostFixture } from "./host-fixture";
import { workspaceRoot } from "./host-tools-support";
import { requireUi, ui } from "./ui";

const commandLine = (pid: number) => fs.readFileSync(`/proc/${pid}/cmdline`, "utf8").split("\0");

describe("trust: untrusted workspaces and paths outside the workspace", function () {
  this.timeout(90_000);
  let host: HostFixture;
  let marker: string;
  let projectExtensions: string;
  let outside: string;
  let violations = 0;
  let cases = 0;

  before(async () => {
    host = await useBundledHost();
    marker = path.join(host.agentDir, "project-extension-loaded");
    projectExtensions = path.join(workspaceRoot(), ".pi", "extensions");
    fs.mkdirSync(projectExtensions, { recursive: true });
    fs.writeFileSync(path.join(projectExtensions, "trust-marker.ts"), `import { writeFileSync } from "node:fs";\nexport default function () { writeFileSync(${JSON.stringify(marker)}, "loaded"); }\n`);
    outside = path.join(path.dirname(workspaceRoot()), "outside-secret.txt");
    fs.writeFileSync(outside, "outside secret\n");
    // The suite's other agents start without a question: this folder's project code is declined.
    await saveTrust(host.agentDir, workspaceRoot(), false);
  });
  after(async () => {
    fs.rmSync(path.join(workspaceRoot(), ".pi"), { recursive: true, force: true });
    fs.rmSync(outside, { force: true });
    await vscode.workspace.getConfiguration("pi").update("permissions.workspaceOnly", undefined, vscode.ConfigurationTarget.Global);
    await host?.dispose();
  });

  /** A supervisor of its own on the workspace, as the extension builds one, with a trust seam. */
  function supervisorWith(trust: { isTrusted: boolean; onDidGrant: vscode.Event<void> }) {
    const log = vscode.window.createOutputChannel("Pi Agent (trust test)", { log: true });
    const supervisor = new AgentSupervisor({ extensionPath: vscode.extensions.getExtension(extensionId)!.extensionPath, log, trust, projectTrust: new ProjectTrust(log) });
    return {
      supervisor,
      async dispose() {
        await supervisor.stop();
        supervisor.dispose();
        log.dispose();
      },
    };
  }

  it("starts no agent when trust is granted unless one was asked for", async () => {
    const grant = new vscode.EventEmitter<void>();
    const trust = { isTrusted: false, onDidGrant: grant.event };
    const { supervisor, dispose } = supervisorWith(trust);
    try {
      trust.isTrusted = true;
      grant.fire();
      await new Promise((resolve) => setTimeout(resolve, 1500));
      cases++;
      if (supervisor.pid !== undefined || supervisor.status === "starting") violations++;
      assert.equal(supervisor.pid, undefined, "granting trust alone started an agent");
    } finally {
      await dispose();
      grant.dispose();
    }
  });

  it("asks before project code loads, shows what would load, and remembers the answer in pi's trust.json", async function () {
    requireUi(this);
    fs.rmSync(marker, { force: true });
    fs.rmSync(path.join(host.agentDir, "trust.json"), { force: true });
    const grant = new vscode.EventEmitter<void>();
    const trust = { isTrusted: false, onDidGrant: grant.event };
    const { supervisor, dispose } = supervisorWith(trust);
    try {
      await assert.rejects(supervisor.ensureStarted(), /untrusted workspace/);
      cases += 2;
      if (supervisor.pid !== undefined) violations++;
      if (fs.existsSync(marker)) violations++;
      trust.isTrusted = true;
      grant.fire(); // the start asked for above goes ahead: first the project-trust question
      const items = await eventually("the project-trust question", async () => {
        const labels = await ui.quickPickItems();
        return labels.includes("Don't Load") ? labels : undefined;
      });
      assert.deepEqual(items, ["Don't Load", "Trust and Load", ".pi/extensions/trust-marker.ts"], "the question lists the file that would run");
      assert.match(await ui.text(".quick-input-widget"), /Load this folder's Pi project resources\?/);
      await ui.screenshot("project-trust-question");
      cases++;
      if (supervisor.pid !== undefined || fs.existsSync(marker)) violations++;
      await ui.pickQuickPickItem("Don't Load");
      const pid = await eventually("the agent to start without project code", () => supervisor.status === "idle" && supervisor.pid);
      assert.ok(commandLine(pid).includes("--no-approve"));
      cases++;
      if (fs.existsSync(marker)) violations++;
      assert.equal(fs.existsSync(marker), false, "declined: the project extension did not run");
      const saved = JSON.parse(fs.readFileSync(path.join(host.agentDir, "trust.json"), "utf8")) as Record<string, boolean>;
      assert.equal(saved[fs.realpathSync(workspaceRoot())], false, "the answer is saved where pi saves it");

      // A decision saved for the pi CLI (pi's /trust writes the same file) holds in the editor: no question.
      await saveTrust(host.agentDir, workspaceRoot(), true);
      await supervisor.restart();
      const trustedPid = await eventually("the agent to restart", () => supervisor.status === "idle" && supervisor.pid);
      assert.ok(commandLine(trustedPid).includes("--approve"), "a trusted project's agent gets --approve");
      assert.ok(fs.existsSync(marker), "the project extension loads once trusted: the checks above are meaningful");
    } finally {
      await dispose();
      grant.dispose();
      await saveTrust(host.agentDir, workspaceRoot(), false);
    }
  });

  it("takes no program or permission setting from the workspace's own settings", async () => {
    const settingsFile = path.join(workspaceRoot(), ".vscode", "settings.json");
    fs.mkdirSync(path.dirname(settingsFile), { recursive: true });
    fs.writeFileSync(settingsFile, JSON.stringify({
      "pi.agent.command": "/bin/sh",
      "pi.agent.args": ["-c", "touch pwned"],
      "pi.permissions.confirmTools": [],
      "pi.permissions.workspaceOnly": false,
      "pi.terminal.command": "/bin/sh",
      "pi.dialogs.surface": "both",
    }));
    try {
      // A window-scoped setting in the same file says when VS Code has read it.
      await eventually("VS Code to read the workspace settings", () => vscode.workspace.getConfiguration("pi").inspect("dialogs.surface")?.workspaceValue !== undefined || undefined);
      await host.api.supervisor.restart();
      const pid = await eventually("the agent to restart", () => host.api.supervisor.status === "idle" && host.api.supervisor.pid);
      const args = commandLine(pid);
      cases += 3;
      if (!args.some((arg) => arg.endsWith("agent-host.js"))) violations++;
      if (!args.includes("--confirm-tools")) violations++;
      if (!args.includes("--workspace-only")) violations++;
      assert.ok(args.some((arg) => arg.endsWith("agent-host.js")), `the workspace chose the agent: ${args.join(" ")}`);
      assert.ok(args.includes("--confirm-tools") && args.includes("--workspace-only"), `the workspace widened permissions: ${args.join(" ")}`);
      assert.equal(fs.existsSync(path.join(workspaceRoot(), "pwned")), false);
    } finally {
      fs.rmSync(path.dirname(settingsFile), { recursive: true, force: true });
      await eventually("the workspace settings to be gone", () => vscode.workspace.getConfiguration("pi").inspect("dialogs.surface")?.workspaceValue === undefined || undefined);
      await eventually("the agent to be ready again", () => host.api.supervisor.status === "idle" && host.api.supervisor.pid);
    }
  });

  async function readOutside(): Promise<string> {
    const { llm } = host;
    const count = llm.requests.length;
    const relative = path.relative(workspaceRoot(), outside);
    llm.enqueue({ toolCalls: [{ id: `out${count}`, name: "read", arguments: { path: relative } }, { id: `abs${count}`, name: "read", arguments: { path: outside } }] });
    await host.api.chat.prompt("read the outside file");
    await llm.waitForRequests(count + 2);
    await eventually("the run to settle", async () => host.api.supervisor.status === "idle" && !(await host.state()).isStreaming);
    return toolResultMessages(llm.requests[count + 1]!).map(messageText).join("\n");
  }

  it("passes --workspace-only to the bundled agent, whose file tools then refuse outside paths", async () => {
    const pid = host.api.supervisor.pid!;
    assert.ok(commandLine(pid).includes("--workspace-only"));
    const refused = await readOutside();
    cases += 2;
    violations += (refused.match(/outside secret/g) ?? []).length;
    assert.equal((refused.match(/outside the workspace/g) ?? []).length, 2, refused);

    await vscode.workspace.getConfiguration("pi").update("permissions.workspaceOnly", false, vscode.ConfigurationTarget.Global);
    await eventually("the agent to restart without the flag", () => host.api.supervisor.pid !== pid && host.api.supervisor.status === "idle");
    assert.ok(!commandLine(host.api.supervisor.pid!).includes("--workspace-only"));
    assert.match(await readOutside(), /outside secret/, "without the policy the same read works: the refusal above is the policy's");
    printFigures(`cases ${cases} (untrusted start, untrusted project extension, outside reads), violations ${violations}`);
    assert.equal(violations, 0);
  });
});
