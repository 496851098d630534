/**
 * The auth provider of an HTTP server's connection: its slot of mcp-auth.json, and the redirect
 * URI its stored client registered (the SDK needs one, and sends it on nothing but a refresh);
 * its refreshes go through the refresh lock.
 */
import type { McpServerConfig } from "../config";
import { McpOAuthProvider } from "./provider";
import { refreshingFetch, refreshLockPath } from "./refresh-lock";
import { mcpAuthSlot } from "./store";

const DEFAULT_REDIRECT = "http://127.0.0.1/callback";

/** The provider, and the fetch its transport must use: the server's token refreshes one at a time across processes (refresh-lock.ts). */
export function connectionAuth(config: McpServerConfig, authDir: string): { authProvider: McpOAuthProvider; fetch: typeof fetch } {
  const slot = mcpAuthSlot(authDir, config.name, config.url!);
  const settings = config.oauth ?? {};
  const redirectUrl = (() => {
    try {
      return slot.load().clientInformation?.redirect_uris?.[0] ?? settings.callbackUrl ?? DEFAULT_REDIRECT;
    } catch {
      return DEFAULT_REDIRECT; // an unreadable file: the connection then asks for a sign-in
    }
  })();
  return { authProvider: new McpOAuthProvider({ slot, settings, redirectUrl }), fetch: refreshingFetch(slot, refreshLockPath(authDir, config.name, config.url!)) };
}
