import type { TSchema } from "@sinclair/typebox";
import * as vscode from "vscode";
import { checker } from "../../shared/protocol";
import {
  fromWebview,
  openConnection,
  receiveNotifications,
  sendMessage,
  serveRequests,
  toWebview,
  type ChannelLog,
  type SchemaCheck,
  type WebviewRequestHandlers,
} from "../../shared/webview-channel";
import { fromWebviewSchemas, type FromWebview, type ToWebview } from "../../shared/webview-protocol";

/** A chat webview's end of the typed channel (shared/webview-channel.ts). */
export interface ChatChannel extends vscode.Disposable {
  post(message: ToWebview): void;
}

const checks = new WeakMap<TSchema, (value: unknown) => string | undefined>();
/** AJV checks, compiled once per schema for every chat webview. */
const ajvCheck: SchemaCheck = (schema, what) => {
  let check = checks.get(schema);
  if (!check) {
    const checked = checker(schema, what);
    check = (value) => {
      const result = checked(value);
      return result.ok ? undefined : result.error;
    };
    checks.set(schema, check);
  }
  return check;
};

/**
 * Opens the channel to a chat webview: what it sends is checked and handed to `receive` (or, for
 * its requests, to `requests()`); a malformed message is logged and dropped. Open it before the
 * webview's HTML is set so that its first message (`ready`) is heard; dispose it with the webview.
 */
export function openChatChannel(
  webview: vscode.Webview,
  log: vscode.LogOutputChannel,
  receive: (message: FromWebview) => void,
  requests: () => WebviewRequestHandlers | undefined,
): ChatChannel {
  const channelLog: ChannelLog = { warn: (text) => log.warn(text), debug: (text) => log.debug(text) };
  const connection = openConnection({ post: (message) => webview.postMessage(message), listen: (deliver) => webview.onDidReceiveMessage(deliver) }, channelLog, "chat view");
  const subscriptions = [
    receiveNotifications(connection, fromWebviewSchemas, fromWebview, ajvCheck, channelLog, "chat view", receive),
    serveRequests(connection, ajvCheck, channelLog, requests),
  ];
  connection.listen();
  let open = true;
  return {
    post: (message) => open && sendMessage(connection, toWebview, message, channelLog),
    dispose: () => {
      open = false;
      for (const subscription of subscriptions) subscription.dispose();
      connection.dispose();
    },
  };
}
