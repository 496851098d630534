/**
 * The MCP SDK's `OAuthClientProvider` over a server's slot of mcp-auth.json, in two roles:
 * - a connection's: sends the stored access token and lets the SDK refresh it, but never starts a
 *   sign-in (Pi's rule): where the user would have to approve, it throws `SignInRequired`;
 * - a sign-in's: registers a client when none fits its loopback redirect, and hands the
 *   authorization page (checked: safe-url.ts) to whoever shows it to the user.
 * The PKCE verifier and the state of a sign-in stay in memory, so a connection running meanwhile
 * cannot overwrite them.
 */
import { randomBytes } from "node:crypto";
import type { OAuthClientProvider, OAuthDiscoveryState } from "@modelcontextprotocol/sdk/client/auth.js";
import type { OAuthClientInformationMixed, OAuthClientMetadata, OAuthTokens } from "@modelcontextprotocol/sdk/shared/auth.js";
import type { McpOAuthSettings } from "../config";
import { checkAuthorizationUrl } from "../../../shared/mcp-oauth-url";
import { storeTokens, type McpAuthSlot, type McpAuthState } from "./store";

/** The server wants a sign-in the user has to approve; connections report it, they do not start it. */
export class SignInRequired extends Error {
  constructor() {
    super("requires sign-in");
    this.name = "SignInRequired";
  }
}

/** Pi registers as `pi` unless `oauth.clientName` says otherwise; servers that know Pi accept us the same. */
export const DEFAULT_CLIENT_NAME = "pi";

export interface ProviderOptions {
  slot: McpAuthSlot;
  settings: McpOAuthSettings;
  redirectUrl: string;
  /** A sign-in's: receives the checked authorization page. Without it the provider is a connection's. */
  authorize?: (url: URL) => void;
}

type StoredClient = NonNullable<McpAuthState["clientInformation"]>;

export class McpOAuthProvider implements OAuthClientProvider {
  private verifier: string | undefined;
  private readonly oauthState = randomBytes(32).toString("hex");

  constructor(private readonly options: ProviderOptions) {}

  get redirectUrl(): string {
    return this.options.redirectUrl;
  }

  get clientMetadata(): OAuthClientMetadata {
    const { settings } = this.options;
    return {
      client_name: settings.clientName ?? DEFAULT_CLIENT_NAME,
      redirect_uris: [this.options.redirectUrl],
      grant_types: ["authorization_code", "refresh_token"],
      response_types: ["code"],
      token_endpoint_auth_method: settings.clientSecret ? "client_secret_post" : "none",
      ...(settings.scope ? { scope: settings.scope } : {}),
    };
  }

  /** The `state` parameter this sign-in sends, to match against the callback's. */
  state(): string {
    return this.oauthState;
  }

  clientInformation(): OAuthClientInformationMixed | undefined {
    const { settings, slot, authorize } = this.options;
    if (settings.clientId) return { client_id: settings.clientId, ...(settings.clientSecret ? { client_secret: settings.clientSecret } : {}) };
    const stored = slot.load().clientInformation;
    if (!authorize) {
      // A connection registers nothing: without a client there is nothing to refresh with.
      if (!stored) throw new SignInRequired();
      return stored as OAuthClientInformationMixed;
    }
    // A sign-in keeps a client registered before while it lists this redirect (Pi's rule), else registers.
    return stored && (stored.redirect_uris ?? []).includes(this.options.redirectUrl) ? (stored as OAuthClientInformationMixed) : undefined;
  }

  saveClientInformation(information: OAuthClientInformationMixed): void {
    if (this.options.settings.clientId) return;
    this.options.slot.update((state) => ({ ...state, clientInformation: information as StoredClient }));
  }

  tokens(): OAuthTokens | undefined {
    return this.options.slot.load().tokens as OAuthTokens | undefined;
  }

  saveTokens(tokens: OAuthTokens): void {
    // A connection gets tokens only from a refresh, which refresh-lock.ts stored under the lock.
    // The SDK hands them here after the lock is let go: storing them again would undo a sign-out
    // that took the lock in between.
    if (!this.options.authorize) return;
    storeTokens(this.options.slot, tokens as Parameters<typeof storeTokens>[1]);
  }

  redirectToAuthorization(url: URL): void {
    if (!this.options.authorize) throw new SignInRequired();
    this.options.authorize(checkAuthorizationUrl(url.href));
  }

  saveCodeVerifier(verifier: string): void {
    if (this.options.authorize) this.verifier = verifier;
  }

  codeVerifier(): string {
    if (!this.verifier) throw new Error("no sign-in is under way for this server");
    return this.verifier;
  }

  invalidateCredentials(kind: "all" | "client" | "tokens" | "verifier" | "discovery"): void {
    if (kind === "all" || kind === "verifier") this.verifier = undefined;
    this.options.slot.update((state) => {
      const next = { ...state };
      if (kind === "all" || kind === "client") delete next.clientInformation;
      if (kind === "all" || kind === "tokens") {
        delete next.tokens;
        delete next.tokensExpireAt;
      }
      if (kind === "all" || kind === "discovery") delete next.discovery;
      return next;
    });
  }

  saveDiscoveryState(discovery: OAuthDiscoveryState): void {
    this.options.slot.update((state) => ({ ...state, discovery: discovery as unknown as Record<string, unknown> }));
  }

  discoveryState(): OAuthDiscoveryState | undefined {
    return this.options.slot.load().discovery as OAuthDiscoveryState | undefined;
  }
}
