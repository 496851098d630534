import { Value } from "@sinclair/typebox/value";
import { RAL } from "vscode-jsonrpc";
import { fromWebview, openConnection, receiveNotifications, request, sendMessage, toWebview, type ChannelLog, type SchemaCheck } from "../shared/webview-channel";
import { toWebviewSchemas, type FromWebview, type ToWebview, type WebviewRequestMethod, type WebviewRequestParams, type WebviewRequestResult } from "../shared/webview-protocol";

/** The webview's end of the typed channel to the extension (shared/webview-channel.ts). */
export interface ExtensionChannel {
  post(message: FromWebview): void;
  /** Asks the extension; the answer is checked against its schema. */
  request<M extends WebviewRequestMethod>(method: M, params: WebviewRequestParams<M>): Promise<WebviewRequestResult<M>>;
}

/** TypeBox's interpreting check: no code generation under the webview's CSP. */
const valueCheck: SchemaCheck = (schema) => (value) => (Value.Check(schema, value) ? undefined : (Value.Errors(schema, value).First()?.message ?? "invalid"));

const log: ChannelLog = {
  warn: (text) => console.warn(text),
  debug: () => undefined,
};

/**
 * vscode-jsonrpc handles each received message in a task of its own (its browser runtime's
 * setImmediate is setTimeout 0, clamped to 4 ms once nested): a 4,000-delta stream then took
 * 22 s to show instead of 0.4 s. Here each message is handled in the task it arrived in, as
 * when the webview listened to `message` events itself.
 */
function handleMessagesWhenTheyArrive(): void {
  const ral = RAL();
  const setImmediate = (callback: (...args: unknown[]) => void, ...args: unknown[]) => {
    let cancelled = false;
    queueMicrotask(() => cancelled || callback(...args));
    return { dispose: () => void (cancelled = true) };
  };
  RAL.install({ ...ral, timer: { ...ral.timer, setImmediate } });
}

/** Connects over acquireVsCodeApi().postMessage and the window's `message` events; what arrives goes to `receive`, checked. */
export function connectToExtension(vscode: { postMessage(message: unknown): void }, receive: (message: ToWebview) => void): ExtensionChannel {
  handleMessagesWhenTheyArrive();
  const connection = openConnection(
    {
      post: (message) => vscode.postMessage(message),
      listen: (deliver) => {
        const onMessage = (event: MessageEvent<unknown>) => deliver(event.data);
        window.addEventListener("message", onMessage);
        return { dispose: () => window.removeEventListener("message", onMessage) };
      },
    },
    log,
    "extension",
  );
  receiveNotifications(connection, toWebviewSchemas, toWebview, valueCheck, log, "extension", receive);
  connection.listen();
  return {
    post: (message) => sendMessage(connection, fromWebview, message, log),
    request: (method, params) => request(connection, valueCheck, method, params),
  };
}
