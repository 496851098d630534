// Hostile assistant text: 100+ XSS payloads (script tags, handlers, javascript: links, SVG, CSS,
// markdown tricks, HTML in code, bidi/zero-width) streamed through the real webview must render
// as text and never run: nothing they would append to the page appears, no message reaches the
// extension, and the page's Content-Security-Policy reports nothing blocked.
import * as assert from "node:assert/strict";
import { xssCorpus, xssMarker } from "../../fixtures/xss-corpus";
import { eventually, usePiAgent, type AgentFixture } from "./agent-fixture";
import { chatText, chatView, freshChat, openChat, settled } from "./chat-support";
import { requireUi, ui } from "./ui";

const batchSize = 11;
const activeContent = [
  "script", "img", "iframe", "frame", "svg", "math", "style", "object", "embed", "form", "link", "meta", "base", "video",
  "audio", "input", "textarea", "select", "template", "noscript", "[onerror]", "[onload]", "[onclick]", "[onmouseover]",
  "[onfocus]", "[style]", "[srcdoc]", "a[href^='javascript' i]", "a[href^='data' i]", "a[href^='vbscript' i]", "a[href^='command' i]",
].map((s) => `.transcript .markdown ${s}`).join(", ");

describe("Pi chat: hostile content", function () {
  this.timeout(180_000);
  let agent: AgentFixture;

  before(async function () {
    requireUi(this);
    agent = await usePiAgent();
    await openChat();
    await freshChat(agent);
  });
  afterEach(async function () {
    if (this.currentTest?.state === "failed") await ui.screenshot(`failed-${this.currentTest.title.slice(0, 40)}`);
  });
  after(async () => agent?.dispose());

  it(`renders ${xssCorpus.length} XSS payloads streamed as assistant text as text, and runs none`, async () => {
    assert.ok(xssCorpus.length >= 100);
    const violationsBefore = agent.api.chat.cspViolations.length;
    const start = agent.llm.requests.length;
    const batches: string[][] = [];
    for (let i = 0; i < xssCorpus.length; i += batchSize) batches.push(xssCorpus.slice(i, i + batchSize));
    for (const [index, batch] of batches.entries()) {
      const text = batch.map((payload, i) => `Payload ${index * batchSize + i}:\n\n${payload}\n\n`).join("");
      agent.llm.enqueue({ text: text.match(/[\s\S]{1,9}/g)!, delayMs: 1 });
      await agent.api.chat.prompt(`hostile batch ${index}`);
      await agent.llm.waitForRequests(start + index + 1);
      await settled(agent);
      await chatText(`batch ${index} rendered`, ".item-assistant:last-child:not([data-streaming])", (t) => t.includes(`Payload ${index * batchSize}:`));
    }
    const page = await ui.webviewText(chatView, "body");
    assert.ok(!page.includes(xssMarker), "a payload ran and changed the page");
    assert.deepEqual(agent.api.chat.cspViolations.slice(violationsBefore), [], "the CSP blocked something the sanitizer let through");
    assert.equal(agent.llm.requests.length, start + batches.length, "a payload sent a prompt");
    // Shown as text.
    const transcript = await ui.webviewText(chatView, ".transcript");
    for (const literal of ["<script>document.body.append('PW'+'NED')</script>", "<img src=x onerror=document.body.append('PW'+'NED')>", "<svg onload=", "[click](javascript:", "<style>@import"]) {
      assert.ok(transcript.includes(literal), `missing as text: ${literal}`);
    }
    // No active element made it into the rendered markdown.
    await assert.rejects(ui.webviewText(chatView, activeContent), /Timeout|timeout/);
    await ui.screenshot("chat-hostile-content");
    await eventually("the agent to be idle", () => agent.api.supervisor.status === "idle");
  });
});
