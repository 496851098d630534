/**
 * The auth provider of an HTTP server's connection: its slot of mcp-auth.json, and the redirect
 * URI its stored client registered (the SDK needs one, and sends it on nothing but a refresh).
 */
import type { McpServerConfig } from "../config";
import { McpOAuthProvider } from "./provider";
import { mcpAuthSlot } from "./store";

const DEFAULT_REDIRECT = "http://127.0.0.1/callback";

export function connectionAuthProvider(config: McpServerConfig, authDir: string): McpOAuthProvider {
  const slot = mcpAuthSlot(authDir, config.name, config.url!);
  const settings = config.oauth ?? {};
  const redirectUrl = (() => {
    try {
      return slot.load().clientInformation?.redirect_uris?.[0] ?? settings.callbackUrl ?? DEFAULT_REDIRECT;
    } catch {
      return DEFAULT_REDIRECT; // an unreadable file: the connection then asks for a sign-in
    }
  })();
  return new McpOAuthProvider({ slot, settings, redirectUrl });
}
