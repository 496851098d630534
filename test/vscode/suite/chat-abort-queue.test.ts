// Abort with messages queued: the agent (Pi, and our host as Pi does) keeps its queue through an
// abort and would send it with the next prompt. The chat gives the queued texts back into the
// message box (as Pi's terminal UI does), the queue shows empty, and the model's next request
// carries none of them: checked on the scripted LLM's requests, with our host and with pi 0.87.1.
import * as assert from "node:assert/strict";
import * as vscode from "vscode";
import type { PiExtensionApi } from "../../../extension/main";
import type { MockLlm } from "../../support/mock-llm";
import { eventually } from "./agent-fixture";
import { chatText, chatView, clearPrompt, promptValue, requestText, settled, typePrompt, useChatSuite, useChatSuiteWith } from "./chat-support";
import { useBundledHost } from "./host-fixture";
import { ui } from "./ui";

interface Agent {
  api: PiExtensionApi;
  llm: MockLlm;
}

type AbortBy = "button" | "command";

async function abortWithQueue(agent: Agent, by: AbortBy, shot?: string): Promise<void> {
  const start = agent.llm.requests.length;
  agent.llm.enqueue({ kind: "hang" });
  await typePrompt("Start a long task");
  await agent.llm.waitForRequests(start + 1);
  await eventually("the run", () => agent.api.supervisor.status === "running");
  await typePrompt("steer A");
  await typePrompt("follow B", "Alt+Enter");
  await chatText("both queued", "#queue", (t) => t.includes("steer A") && t.includes("follow B"));
  if (by === "button") await ui.clickInWebview(chatView, "vscode-button#abort");
  else await vscode.commands.executeCommand("pi.abort");
  await settled(agent);
  const box = await eventually("the queued texts back in the box", async () => {
    const value = await promptValue();
    return value.includes("steer A") && value.includes("follow B") ? value : undefined;
  });
  assert.equal(box, "steer A\n\nfollow B");
  await eventually("the queue hidden", async () => (await ui.webviewProperties(chatView, "#queue", ["hidden"])).hidden === true || undefined);
  const state = await agent.api.supervisor.client!.request("get_state", {});
  assert.equal(state.pendingMessageCount, 0, "the agent holds no queued message");
  if (shot) await ui.screenshot(shot);

  // A new prompt: the model gets it, and none of the aborted messages.
  await clearPrompt();
  agent.llm.enqueue({ text: "Fresh answer." });
  await typePrompt("A new question");
  const [request] = (await agent.llm.waitForRequests(start + 2)).slice(start + 1);
  const sent = requestText(request);
  assert.match(sent, /A new question/);
  assert.doesNotMatch(sent, /steer A|follow B/);
  await chatText("the reply", ".item-assistant:last-child .text", (t) => t === "Fresh answer.");
  await settled(agent);
  assert.equal(agent.llm.requests.length, start + 2, "no further request carried the aborted messages");
}

describe("Pi chat: Abort gives the queue back (bundled host)", function () {
  this.timeout(90_000);
  const host = useChatSuiteWith(useBundledHost);

  it("Abort puts steer + follow-up back into the box; the next request has neither", async () => {
    await abortWithQueue(host(), "button", "chat-abort-queue-host");
  });

  it("Pi: Abort Agent (the command) does the same", async () => {
    await abortWithQueue(host(), "command");
  });
});

describe("Pi chat: Abort gives the queue back (pi 0.87.1)", function () {
  this.timeout(90_000);
  const fixture = useChatSuite();

  it("Abort puts steer + follow-up back into the box; the next request has neither", async () => {
    await abortWithQueue(fixture(), "button", "chat-abort-queue-pi");
  });

  it("Pi: Abort Agent (the command) does the same", async () => {
    await abortWithQueue(fixture(), "command");
  });
});
