import type { Static, TSchema } from "@sinclair/typebox";
import {
  createMessageConnection,
  ErrorCodes,
  NotificationType,
  RequestType,
  ResponseError,
  type CancellationToken,
  type Disposable,
  type MessageConnection,
} from "vscode-jsonrpc";
import { PostMessageReader, PostMessageWriter, type PostMessagePort } from "./post-message-transport";
import {
  fromWebviewSchemas,
  toWebviewSchemas,
  webviewRequestSchemas,
  type FromWebview,
  type ToWebview,
  type WebviewRequestMethod,
  type WebviewRequestParams,
  type WebviewRequestResult,
} from "./webview-protocol";

/**
 * The typed channel between the extension and the chat webview: a vscode-jsonrpc connection on
 * each side over postMessage. Each message of shared/webview-protocol.ts is a notification whose
 * method is its `type` and whose params are the message itself; the webview's questions
 * (webviewRequestSchemas) are requests. Both sides check what they receive against the same
 * schemas, each with its own checker (AJV in the extension, TypeBox's Value.Check in the
 * webview); a malformed message is reported and dropped.
 */

type NotificationTypes<S extends Record<string, TSchema>> = { readonly [K in keyof S]: NotificationType<Static<S[K]>> };
type RequestTypes<S extends Record<string, { params: TSchema; result: TSchema }>> = {
  readonly [K in keyof S]: RequestType<Static<S[K]["params"]>, Static<S[K]["result"]>, void>;
};

function notificationTypes<S extends Record<string, TSchema>>(schemas: S): NotificationTypes<S> {
  return Object.fromEntries(Object.keys(schemas).map((method) => [method, new NotificationType(method)])) as unknown as NotificationTypes<S>;
}

function requestTypes<S extends Record<string, { params: TSchema; result: TSchema }>>(schemas: S): RequestTypes<S> {
  return Object.fromEntries(Object.keys(schemas).map((method) => [method, new RequestType(method)])) as unknown as RequestTypes<S>;
}

/** Extension → webview notifications. */
export const toWebview = notificationTypes(toWebviewSchemas);
/** Webview → extension notifications. */
export const fromWebview = notificationTypes(fromWebviewSchemas);
/** Webview → extension requests. */
export const webviewRequests = requestTypes(webviewRequestSchemas);

/** Compiles a check for a schema: it returns what is wrong with a value, or undefined. */
export type SchemaCheck = (schema: TSchema, what: string) => (value: unknown) => string | undefined;

export interface ChannelLog {
  /** A message was malformed or unknown and was dropped. */
  warn(text: string): void;
  debug(text: string): void;
}

/** Each request the webview may make, answered by the extension. */
export type WebviewRequestHandlers = {
  [M in WebviewRequestMethod]: (params: WebviewRequestParams<M>, token: CancellationToken) => Promise<WebviewRequestResult<M>>;
};

/** One side of the channel: a listening connection with the malformed-message reporting set up. */
export function openConnection(port: PostMessagePort, log: ChannelLog, side: string): MessageConnection {
  const connection = createMessageConnection(new PostMessageReader(port), new PostMessageWriter(port), {
    error: (text) => log.warn(`${side}: ${text}`),
    warn: (text) => log.warn(`${side}: ${text}`),
    info: (text) => log.debug(`${side}: ${text}`),
    log: (text) => log.debug(`${side}: ${text}`),
  });
  connection.onError(([error]) => log.warn(`${side}: dropped a malformed message: ${error.message}`));
  connection.onUnhandledNotification((message) => log.warn(`${side}: dropped a message of unknown type ${JSON.stringify(message.method)}`));
  return connection;
}

/** Receives the notifications of `schemas`, checked; a malformed one is reported and dropped. */
export function receiveNotifications<S extends Record<string, TSchema>>(
  connection: MessageConnection,
  schemas: S,
  types: NotificationTypes<S>,
  check: SchemaCheck,
  log: ChannelLog,
  side: string,
  receive: (message: Static<S[keyof S]>) => void,
): Disposable {
  const subscriptions = (Object.keys(schemas) as (keyof S & string)[]).map((method) => {
    const problem = check(schemas[method], `${method} message`);
    return connection.onNotification(types[method] as NotificationType<unknown>, (params: unknown) => {
      const error = problem(params);
      if (error === undefined) receive(params as Static<S[keyof S]>);
      else log.warn(`${side}: dropped a malformed ${method} message: ${error}`);
    });
  });
  return { dispose: () => subscriptions.forEach((s) => s.dispose()) };
}

/** Answers the webview's requests (extension side); malformed or unknown ones get an error reply and a log line. */
export function serveRequests(connection: MessageConnection, check: SchemaCheck, log: ChannelLog, handlers: () => WebviewRequestHandlers | undefined): Disposable {
  const subscriptions = (Object.keys(webviewRequestSchemas) as WebviewRequestMethod[]).map((method) => {
    const problem = check(webviewRequestSchemas[method].params, `${method} request`);
    return connection.onRequest(webviewRequests[method] as RequestType<unknown, unknown, void>, async (params: unknown, token: CancellationToken) => {
      const error = problem(params);
      if (error !== undefined) {
        log.warn(`chat view: dropped a malformed ${method} request: ${error}`);
        return new ResponseError(ErrorCodes.InvalidParams, error);
      }
      const handler = handlers()?.[method] as ((params: unknown, token: CancellationToken) => Promise<unknown>) | undefined;
      if (!handler) return new ResponseError(ErrorCodes.MethodNotFound, `no chat answers ${method} yet`);
      return handler(params, token);
    });
  });
  subscriptions.push(
    connection.onRequest((method: string) => {
      log.warn(`chat view: dropped a request of unknown method ${JSON.stringify(method)}`);
      return new ResponseError(ErrorCodes.MethodNotFound, `unknown method ${method}`);
    }),
  );
  return { dispose: () => subscriptions.forEach((s) => s.dispose()) };
}

/** Sends one protocol message as the notification of its type (`toWebview` or `fromWebview`). */
export function sendMessage(connection: MessageConnection, types: typeof toWebview, message: ToWebview, log: ChannelLog): void;
export function sendMessage(connection: MessageConnection, types: typeof fromWebview, message: FromWebview, log: ChannelLog): void;
export function sendMessage(connection: MessageConnection, types: Record<string, NotificationType<unknown>>, message: ToWebview | FromWebview, log: ChannelLog): void {
  connection.sendNotification(types[message.type]!, message).catch((error: unknown) => log.debug(`could not post ${message.type}: ${String(error)}`));
}

/** Asks the extension (webview side); the answer is checked against its schema. */
export async function request<M extends WebviewRequestMethod>(
  connection: MessageConnection,
  check: SchemaCheck,
  method: M,
  params: WebviewRequestParams<M>,
): Promise<WebviewRequestResult<M>> {
  const result: unknown = await connection.sendRequest(webviewRequests[method] as RequestType<unknown, unknown, void>, params);
  const error = check(webviewRequestSchemas[method].result, `${method} result`)(result);
  if (error !== undefined) throw new Error(`malformed ${method} result: ${error}`);
  return result as WebviewRequestResult<M>;
}
