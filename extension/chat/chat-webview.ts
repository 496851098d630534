import { randomBytes } from "node:crypto";
import * as vscode from "vscode";
import type { WebviewRequestHandlers } from "../../shared/webview-channel";
import type { FromWebview } from "../../shared/webview-protocol";
import { openChatChannel, type ChatChannel } from "./chat-channel";

/**
 * Loads the chat into a webview (the side bar's view or an editor tab's panel): scripts on, dist/
 * as its only local root, the channel opened before the HTML so the webview's `ready` is heard.
 */
export function loadChat(
  webview: vscode.Webview,
  extensionUri: vscode.Uri,
  log: vscode.LogOutputChannel,
  receive: (message: FromWebview) => void,
  requests: () => WebviewRequestHandlers | undefined,
): ChatChannel {
  const dist = vscode.Uri.joinPath(extensionUri, "dist");
  webview.options = { enableScripts: true, localResourceRoots: [dist] };
  const channel = openChatChannel(webview, log, receive, requests);
  webview.html = chatHtml(webview, dist);
  return channel;
}

export function chatHtml(webview: vscode.Webview, dist: vscode.Uri): string {
  const nonce = randomBytes(18).toString("base64");
  const script = webview.asWebviewUri(vscode.Uri.joinPath(dist, "webview.js"));
  const style = webview.asWebviewUri(vscode.Uri.joinPath(dist, "webview.css"));
  const csp = [
    "default-src 'none'",
    `style-src ${webview.cspSource}`,
    `font-src ${webview.cspSource}`,
    `img-src ${webview.cspSource} data:`,
    `script-src 'nonce-${nonce}'`,
  ].join("; ");
  return `<!DOCTYPE html>
<html lang="en">
<head>
<meta charset="UTF-8">
<meta http-equiv="Content-Security-Policy" content="${csp}">
<meta name="viewport" content="width=device-width, initial-scale=1.0">
<link rel="stylesheet" href="${style}">
<title>Pi</title>
</head>
<body>
<main id="app"></main>
<script nonce="${nonce}" src="${script}"></script>
</body>
</html>`;
}
