/**
 * One OAuth sign-in to an MCP server, with the SDK's `auth()`: a loopback listener, then either
 * the stored refresh token (nothing for the user to do) or the authorization page, which the
 * caller offers the user (the host sends it to its client; it never opens a browser itself).
 * The browser's answer is exchanged for tokens, stored in mcp-auth.json. Cancelling, the time
 * limit, a refusal and a bad answer all end it with an error; nothing waits past the limit.
 */
import type { McpOAuthSettings } from "../config";
import { loadMcpSdk } from "../sdk";
import { listenForCallback } from "./callback-server";
import { McpOAuthProvider } from "./provider";
import { isLoopbackHost } from "../../../shared/mcp-oauth-url";
import { issuerCheck } from "./issuer-check";
import { refreshingFetch } from "./refresh-lock";
import { boundedFetch } from "../../../shared/node/bounded-fetch";
import type { McpAuthSlot } from "./store";

/** How long a sign-in waits for the browser (Pi: 300 s). */
export const SIGN_IN_TIMEOUT_MS = 300_000;
/** Each request to the authorization server (discovery, registration, token): a server that never answers ends the sign-in. */
export const AUTH_REQUEST_TIMEOUT_MS = 30_000;

export interface SignIn {
  /** The page the user must open; absent when the stored refresh token was enough. */
  authorizationUrl?: URL;
  /** Resolves once tokens are stored; rejects with why not. */
  done: Promise<void>;
}

/** The port of a loopback redirect a stored client registered, to keep that client in use. */
function registeredPort(slot: McpAuthSlot): number | undefined {
  const uri = slot.load().clientInformation?.redirect_uris?.[0];
  if (!uri) return undefined;
  try {
    const url = new URL(uri);
    return url.protocol === "http:" && isLoopbackHost(url.hostname) && url.port && url.pathname === "/callback" ? Number(url.port) : undefined;
  } catch {
    return undefined;
  }
}

const withPort = (port: number | undefined): { preferredPort?: number } => (port === undefined ? {} : { preferredPort: port });

export async function startSignIn(options: { serverUrl: string; settings: McpOAuthSettings; slot: McpAuthSlot; signal: AbortSignal; timeoutMs?: number; requestTimeoutMs?: number; /** The server's refresh lock (refresh-lock.ts): a refresh with the stored token takes it. */ refreshLock?: string }): Promise<SignIn> {
  const { settings, slot, signal } = options;
  // Pi identifies itself with its own document on pi.dev, and registers when it runs under another name; this host has none of its own.
  if (settings.clientRegistration === "cimd" && !settings.clientId) throw new Error('oauth.clientRegistration is "cimd", but this host has no Client ID Metadata Document of its own (pi\'s on pi.dev names pi); set it to "auto" or "dcr" to register a client, or give oauth.clientId');
  const sdk = loadMcpSdk();
  const callback = await listenForCallback({
    ...(settings.callbackUrl ? { callbackUrl: settings.callbackUrl } : {}),
    ...(settings.callbackPort ? { port: settings.callbackPort } : {}),
    ...(settings.clientId ? {} : withPort(registeredPort(slot))),
  });
  try {
    let authorizationUrl: URL | undefined;
    const provider = new McpOAuthProvider({ slot, settings, redirectUrl: callback.redirectUrl, authorize: (url) => (authorizationUrl = url) });
    const scope = settings.scope ? { scope: settings.scope } : {};
    // Each request ended by its own time limit or the sign-in's signal.
    const timed = boundedFetch(fetch, options.requestTimeoutMs ?? AUTH_REQUEST_TIMEOUT_MS, signal);
    const fetchFn = options.refreshLock ? refreshingFetch(slot, options.refreshLock, timed) : timed;
    const first = await sdk.auth(provider, { serverUrl: options.serverUrl, fetchFn, ...scope });
    if (first === "AUTHORIZED") {
      await callback.close();
      return { done: Promise.resolve() };
    }
    if (!authorizationUrl) throw new Error("the server asked for a sign-in but gave no authorization page");
    const done = (async () => {
      try {
        // The metadata the first auth() discovered (or reused): whether and how the answer names its issuer.
        const discovery = slot.load().discovery as { authorizationServerMetadata?: unknown; authorizationServerUrl?: unknown } | undefined;
        const serverUrl = typeof discovery?.authorizationServerUrl === "string" ? discovery.authorizationServerUrl : undefined;
        const { code } = await callback.wait(provider.state(), signal, options.timeoutMs ?? SIGN_IN_TIMEOUT_MS, issuerCheck(discovery?.authorizationServerMetadata, serverUrl));
        const result = await sdk.auth(provider, { serverUrl: options.serverUrl, authorizationCode: code, fetchFn, ...scope });
        if (result !== "AUTHORIZED") throw new Error("the authorization server did not issue tokens");
      } finally {
        await callback.close();
      }
    })();
    return { authorizationUrl, done };
  } catch (error) {
    await callback.close();
    throw error;
  }
}
