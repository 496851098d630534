/**
 * The loopback listener an OAuth sign-in's browser comes back to (RFC 8252): on 127.0.0.1 (or the
 * configured loopback callbackUrl's host), one path, answered with a short plain page. Only the
 * answer carrying this sign-in's `state` counts; anything else is turned away and the wait goes on.
 */
import { createServer, type Server } from "node:http";
import type { AddressInfo } from "node:net";

export interface CallbackResult {
  code: string;
}

export interface LoopbackCallback {
  /** The redirect URI to register and send: the listener's actual port filled in. */
  redirectUrl: string;
  /**
   * Resolves with the code of the answer carrying `state`; rejects on an error answer, `signal`, the
   * time limit, or when `refuse` finds something wrong with the answer (its reason is shown).
   */
  wait(state: string, signal: AbortSignal, timeoutMs: number, refuse?: (answer: URLSearchParams) => string | undefined): Promise<CallbackResult>;
  close(): Promise<void>;
}

const page = (title: string, text: string): string =>
  `<!doctype html><meta charset="utf-8"><title>${title}</title><body style="font-family:sans-serif"><p>${text}</p></body>`;
/** What the authorization server put in `error`/`error_description`, shown as text: short, no markup. */
const plain = (value: string | null): string => (value ?? "").replace(/[^\x20-\x7e]/g, "").slice(0, 200);
const escapeHtml = (value: string): string => value.replace(/[&<>"']/g, (c) => `&#${c.charCodeAt(0)};`);

function listen(server: Server, host: string, port: number): Promise<number> {
  return new Promise((resolve, reject) => {
    server.once("error", reject);
    server.listen(port, host, () => {
      server.off("error", reject);
      resolve((server.address() as AddressInfo).port);
    });
  });
}

/**
 * Listens for the callback. `callbackUrl` (a checked loopback http URL) or `http://127.0.0.1/callback`
 * gives host and path; its port, else `port`, else a free one. When `preferredPort` is busy, a free port is taken.
 */
export async function listenForCallback(options: { callbackUrl?: string; port?: number; preferredPort?: number }): Promise<LoopbackCallback> {
  const template = new URL(options.callbackUrl ?? "http://127.0.0.1/callback");
  const bindHost = template.hostname === "[::1]" ? "::1" : template.hostname === "localhost" ? "127.0.0.1" : template.hostname;
  /** The waiting sign-in: whether the answer was its own, and why it refused it. */
  let answer: ((url: URL) => { own: boolean; refused?: string }) | undefined;
  const server = createServer((req, res) => {
    const url = new URL(req.url ?? "/", "http://loopback");
    if (req.method !== "GET" || url.pathname !== template.pathname) {
      res.writeHead(404, { "content-type": "text/plain" }).end("Not found");
      return;
    }
    if (!answer) {
      res.writeHead(410, { "content-type": "text/html; charset=utf-8" }).end(page("Sign-in", "No sign-in is waiting here. You may close this page."));
      return;
    }
    const { own, refused } = answer(url);
    if (!own) {
      res.writeHead(400, { "content-type": "text/html; charset=utf-8" }).end(page("Sign-in", "This answer does not belong to the sign-in under way."));
      return;
    }
    if (refused) {
      res.writeHead(400, { "content-type": "text/html; charset=utf-8", "cache-control": "no-store" }).end(page("Sign-in refused", `Sign-in refused: ${escapeHtml(refused)}. You may close this page.`));
      return;
    }
    const error = url.searchParams.get("error");
    res.writeHead(200, { "content-type": "text/html; charset=utf-8", "cache-control": "no-store" });
    res.end(error ? page("Sign-in failed", `Sign-in failed: ${escapeHtml(plain(error))}. You may close this page.`) : page("Signed in", "Signed in to the MCP server. You may now close this page."));
  });
  const fixed = template.port ? Number(template.port) : options.port;
  let port: number;
  try {
    port = await listen(server, bindHost, fixed ?? options.preferredPort ?? 0);
  } catch (error) {
    if (fixed !== undefined || options.preferredPort === undefined) throw error;
    port = await listen(server, bindHost, 0);
  }
  const redirect = new URL(template.href);
  redirect.port = String(port);
  // A configured callbackUrl is sent as written (its port added when it had none), Pi's rule.
  const redirectUrl = options.callbackUrl && template.port ? options.callbackUrl : redirect.href;
  return {
    redirectUrl,
    wait: (state, signal, timeoutMs, refuse) =>
      new Promise<CallbackResult>((resolve, reject) => {
        const finish = (): void => {
          answer = undefined;
          clearTimeout(timer);
          signal.removeEventListener("abort", aborted);
        };
        const aborted = (): void => (finish(), reject(new Error("sign-in cancelled")));
        const timer = setTimeout(() => (finish(), reject(new Error(`no answer from the browser within ${Math.round(timeoutMs / 1000)} s`))), timeoutMs);
        if (signal.aborted) return aborted();
        signal.addEventListener("abort", aborted, { once: true });
        answer = (url) => {
          // Another page's request (no or a wrong state) does not end this sign-in.
          if (url.searchParams.get("state") !== state) return { own: false };
          finish();
          const refused = refuse?.(url.searchParams);
          if (refused) {
            reject(new Error(refused));
            return { own: true, refused };
          }
          const error = url.searchParams.get("error");
          const code = url.searchParams.get("code");
          if (error) reject(new Error(`the authorization server refused: ${plain(error)}${url.searchParams.get("error_description") ? ` (${plain(url.searchParams.get("error_description"))})` : ""}`));
          else if (!code) reject(new Error("the authorization server's answer has no code"));
          else resolve({ code });
          return { own: true };
        };
      }),
    close: () => new Promise<void>((resolve) => server.close(() => resolve()).closeAllConnections()),
  };
}
