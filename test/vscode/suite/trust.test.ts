// Workspace trust and paths in the editor: in an untrusted workspace no agent starts and the
// workspace's .pi/extensions/ does not load; once trusted the agent starts with --approve and it
// does. The bundled agent gets --workspace-only (pi.permissions.workspaceOnly, on by default), so
// its file tools refuse a path outside the workspace; with the setting off they do not.
import * as assert from "node:assert/strict";
import * as fs from "node:fs";
import * as path from "node:path";
import * as vscode from "vscode";
import { AgentSupervisor } from "../../../extension/agent-supervisor";
import { messageText, toolResultMessages } from "../../support/mock-llm";
import { eventually, extensionId } from "./agent-fixture";
import { printFigures } from "./figures";
import { useBundledHost, type HostFixture } from "./host-fixture";
import { workspaceRoot } from "./host-tools-support";

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
  });
  after(async () => {
    fs.rmSync(path.join(workspaceRoot(), ".pi"), { recursive: true, force: true });
    fs.rmSync(outside, { force: true });
    await vscode.workspace.getConfiguration("pi").update("permissions.workspaceOnly", undefined, vscode.ConfigurationTarget.Global);
    await host?.dispose();
  });

  it("starts nothing and loads no project extension until the workspace is trusted", async () => {
    fs.rmSync(marker, { force: true });
    const grant = new vscode.EventEmitter<void>();
    const trust = { isTrusted: false, onDidGrant: grant.event };
    const log = vscode.window.createOutputChannel("Pi Agent (trust test)", { log: true });
    const supervisor = new AgentSupervisor({ extensionPath: vscode.extensions.getExtension(extensionId)!.extensionPath, log, trust });
    try {
      await assert.rejects(supervisor.ensureStarted(), /untrusted workspace/);
      cases += 2;
      if (supervisor.pid !== undefined) violations++;
      if (fs.existsSync(marker)) violations++;
      trust.isTrusted = true;
      grant.fire();
      const pid = await eventually("the agent to start once trusted", () => supervisor.status === "idle" && supervisor.pid);
      assert.ok(commandLine(pid).includes("--approve"), "a trusted workspace's agent gets --approve");
      assert.ok(fs.existsSync(marker), "the project extension loads once trusted: the check above is meaningful");
    } finally {
      await supervisor.stop();
      supervisor.dispose();
      log.dispose();
      grant.dispose();
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
