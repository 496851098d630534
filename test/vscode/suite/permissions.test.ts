// The bundled agent asks before risky tools (pi.permissions.confirmTools, on by default): the
// question is a native quick pick the user answers; Deny blocks the call with a reason the model
// reads, "Allow for this session" stops asking.
import * as assert from "node:assert/strict";
import * as vscode from "vscode";
import { toolResultMessages } from "../../support/mock-llm";
import { eventually } from "./agent-fixture";
import { useBundledHost, type HostFixture } from "./host-fixture";
import { requireUi, ui } from "./ui";

describe("permissions: the bundled agent asks before bash", function () {
  this.timeout(90_000);
  let host: HostFixture;

  before(async function () {
    requireUi(this);
    host = await useBundledHost();
  });
  after(async () => host?.dispose());

  async function promptWithBash(command: string): Promise<number> {
    const before = host.llm.requests.length;
    host.llm.enqueue({ toolCalls: [{ name: "bash", arguments: { command } }] }, { text: "done" });
    void vscode.commands.executeCommand("pi.sendPrompt", `run ${command}`);
    return before;
  }

  async function settled(requestsBefore: number): Promise<void> {
    await host.llm.waitForRequests(requestsBefore + 2);
    await eventually("the run to settle", async () => host.api.supervisor.status === "idle" && !(await host.state()).isStreaming);
  }

  it("shows the question as a quick pick and blocks the call on Deny", async () => {
    const before = await promptWithBash("echo secret-plan");
    await eventually("the permission quick pick", async () => (await ui.quickPickItems()).includes("Deny") || undefined);
    assert.deepEqual(await ui.quickPickItems(), ["Allow once", "Allow for this session", "Deny"]);
    await ui.screenshot("permission-question");
    await ui.pickQuickPickItem("Deny");
    await settled(before);
    const result = JSON.stringify(toolResultMessages(host.llm.requests.at(-1)!));
    assert.match(result, /denied this bash call/);
    assert.doesNotMatch(result, /secret-plan\\n/);
  });

  it("runs the call after Allow for this session, and does not ask again", async () => {
    let before = await promptWithBash("echo allowed-1");
    await eventually("the permission quick pick", async () => (await ui.quickPickItems()).includes("Allow for this session") || undefined);
    await ui.pickQuickPickItem("Allow for this session");
    await settled(before);
    assert.match(JSON.stringify(toolResultMessages(host.llm.requests.at(-1)!)), /allowed-1/);
    before = await promptWithBash("echo allowed-2");
    await settled(before);
    assert.match(JSON.stringify(toolResultMessages(host.llm.requests.at(-1)!)), /allowed-2/);
  });
});
