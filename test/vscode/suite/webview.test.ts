// A real webview panel created here, driven through the bridge's nested-iframe helpers.
import * as assert from "node:assert/strict";
import * as vscode from "vscode";
import { ui, requireUi } from "./ui";

const title = "Bridge Test Panel";

function panelHtml(nonce: string, cspSource: string): string {
  const csp = `default-src 'none'; style-src ${cspSource} 'unsafe-inline'; script-src 'nonce-${nonce}'`;
  return `<!DOCTYPE html><html><head><meta charset="utf-8">
<meta http-equiv="Content-Security-Policy" content="${csp}"></head><body>
<input id="prompt"><button id="send">Send</button><p id="out">nothing yet</p>
<script nonce="${nonce}">
const vscode = acquireVsCodeApi();
document.getElementById("send").addEventListener("click", () => {
  const text = document.getElementById("prompt").value;
  document.getElementById("out").textContent = "sent: " + text;
  vscode.postMessage({ text });
});
</script></body></html>`;
}

describe("webview through the UI bridge", function () {
  let panel: vscode.WebviewPanel | undefined;
  before(function () {
    requireUi(this);
  });
  after(() => panel?.dispose());

  it("types and clicks inside a webview panel and sees its message", async () => {
    panel = vscode.window.createWebviewPanel("piHarness.test", title, vscode.ViewColumn.One, { enableScripts: true });
    const received = new Promise<string>((resolve) =>
      panel?.webview.onDidReceiveMessage((msg: { text: string }) => resolve(msg.text)),
    );
    panel.webview.html = panelHtml(String(Date.now()), panel.webview.cspSource);

    await ui.typeInWebview(title, "#prompt", "hello webview");
    await ui.clickInWebview(title, "#send");
    assert.equal(await received, "hello webview");
    assert.equal(await ui.webviewText(title, "#out"), "sent: hello webview");
    await ui.screenshot("webview-panel");
  });
});
