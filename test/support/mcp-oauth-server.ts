/**
 * An OAuth-protected MCP server on loopback, built from the MCP SDK's own server parts: its
 * authorization server (`mcpAuthRouter`: metadata, dynamic client registration, /authorize,
 * /token) and its bearer-token check (`requireBearerAuth`) in front of a streamable HTTP MCP
 * server with one tool. The provider is the SDK example's in-memory one (DemoInMemoryAuthProvider)
 * grown what the tests need: refresh tokens that rotate, expiring or revoking every token, counts.
 * `authorize` approves at once, as a user who clicks "Allow" would; `metadata` overrides fields of
 * the authorization server's metadata (a hostile server's).
 */
import { randomUUID } from "node:crypto";
import type { IncomingMessage, Server, ServerResponse } from "node:http";
import type { AddressInfo } from "node:net";
import { McpServer } from "@modelcontextprotocol/sdk/server/mcp.js";
import { StreamableHTTPServerTransport } from "@modelcontextprotocol/sdk/server/streamableHttp.js";
import { mcpAuthRouter, createOAuthMetadata, getOAuthProtectedResourceMetadataUrl } from "@modelcontextprotocol/sdk/server/auth/router.js";
import { requireBearerAuth } from "@modelcontextprotocol/sdk/server/auth/middleware/bearerAuth.js";
import { InvalidGrantError, InvalidTokenError } from "@modelcontextprotocol/sdk/server/auth/errors.js";
import type { AuthorizationParams, OAuthServerProvider } from "@modelcontextprotocol/sdk/server/auth/provider.js";
import type { OAuthRegisteredClientsStore } from "@modelcontextprotocol/sdk/server/auth/clients.js";
import type { AuthInfo } from "@modelcontextprotocol/sdk/server/auth/types.js";
import type { OAuthClientInformationFull, OAuthTokens } from "@modelcontextprotocol/sdk/shared/auth.js";
import { z } from "zod";

/** The little of express used here (the SDK's auth router is express middleware; express ships no types here). */
type Req = IncomingMessage & { body?: unknown };
type Res = ServerResponse & { redirect(url: string): void; json(body: unknown): void; status(code: number): Res };
type Handler = (req: Req, res: Res, next: (error?: unknown) => void) => void;
interface ExpressApp {
  use(handler: unknown): void;
  get(path: string, ...handlers: unknown[]): void;
  post(path: string, ...handlers: unknown[]): void;
  listen(port: number, host: string, ready: () => void): Server;
}
type Express = { (): ExpressApp; json(): Handler };
const express = require("express") as Express;

class ClientsStore implements OAuthRegisteredClientsStore {
  readonly clients = new Map<string, OAuthClientInformationFull>();
  getClient(clientId: string): OAuthClientInformationFull | undefined {
    return this.clients.get(clientId);
  }
  registerClient(client: OAuthClientInformationFull): OAuthClientInformationFull {
    this.clients.set(client.client_id, client);
    return client;
  }
}

export class TestAuthProvider implements OAuthServerProvider {
  readonly clientsStore = new ClientsStore();
  private readonly codes = new Map<string, { clientId: string; params: AuthorizationParams }>();
  private readonly access = new Map<string, { clientId: string; expiresAt: number }>();
  private readonly refresh = new Map<string, string>();
  /** The `iss` its answers carry (RFC 9207), none by default; a hostile or mixed-up server's is set here. */
  iss: string | undefined;
  readonly counts = { authorizations: 0, exchanges: 0, refreshes: 0, refreshRequests: 0 };

  async authorize(client: OAuthClientInformationFull, params: AuthorizationParams, res: Parameters<OAuthServerProvider["authorize"]>[2]): Promise<void> {
    this.counts.authorizations++;
    const code = randomUUID();
    this.codes.set(code, { clientId: client.client_id, params });
    const target = new URL(params.redirectUri);
    target.searchParams.set("code", code);
    if (params.state !== undefined) target.searchParams.set("state", params.state);
    if (this.iss !== undefined) target.searchParams.set("iss", this.iss);
    res.redirect(target.href);
  }

  async challengeForAuthorizationCode(_client: OAuthClientInformationFull, code: string): Promise<string> {
    const data = this.codes.get(code);
    if (!data) throw new InvalidGrantError("unknown code");
    return data.params.codeChallenge;
  }

  private issue(clientId: string): OAuthTokens {
    const token = randomUUID();
    const refresh = randomUUID();
    this.access.set(token, { clientId, expiresAt: Date.now() + 3_600_000 });
    this.refresh.set(refresh, clientId);
    return { access_token: token, token_type: "bearer", expires_in: 3600, refresh_token: refresh };
  }

  async exchangeAuthorizationCode(client: OAuthClientInformationFull, code: string): Promise<OAuthTokens> {
    const data = this.codes.get(code);
    if (!data || data.clientId !== client.client_id) throw new InvalidGrantError("unknown code");
    this.codes.delete(code);
    this.counts.exchanges++;
    return this.issue(client.client_id);
  }

  /** How long a refresh takes after its token was spent (a slow authorization server: the window two refreshes race in). */
  refreshDelayMs = 0;

  async exchangeRefreshToken(client: OAuthClientInformationFull, refreshToken: string): Promise<OAuthTokens> {
    this.counts.refreshRequests++;
    if (this.refresh.get(refreshToken) !== client.client_id) throw new InvalidGrantError("refresh token refused");
    this.refresh.delete(refreshToken); // rotated: each refresh token is good once
    if (this.refreshDelayMs > 0) await new Promise((resolve) => setTimeout(resolve, this.refreshDelayMs));
    this.counts.refreshes++;
    return this.issue(client.client_id);
  }

  async verifyAccessToken(token: string): Promise<AuthInfo> {
    const data = this.access.get(token);
    if (!data || data.expiresAt < Date.now()) throw new InvalidTokenError("invalid or expired token");
    return { token, clientId: data.clientId, scopes: [], expiresAt: Math.floor(data.expiresAt / 1000) };
  }

  /** Every access token stops working; refresh tokens still do. */
  expireAccessTokens(): void {
    this.access.clear();
  }

  /** Every token, refresh tokens too, stops working. */
  revokeAll(): void {
    this.access.clear();
    this.refresh.clear();
  }
}

export interface OAuthMcpServer {
  url: string;
  provider: TestAuthProvider;
  close(): Promise<void>;
}

export async function startOAuthMcpServer(options: { metadata?: Record<string, unknown>; hang?: "token" | "register" } = {}): Promise<OAuthMcpServer> {
  const provider = new TestAuthProvider();
  const app = express();
  const server: Server = await new Promise((resolve) => {
    const s = app.listen(0, "127.0.0.1", () => resolve(s));
  });
  const base = new URL(`http://127.0.0.1:${(server.address() as AddressInfo).port}`);
  const mcpUrl = new URL("/mcp", base);
  if (options.metadata) {
    const metadata = { ...createOAuthMetadata({ provider, issuerUrl: base }), ...options.metadata };
    app.get("/.well-known/oauth-authorization-server", (_req: Req, res: Res) => void res.json(metadata));
  }
  // A server that never answers there (a hung or hostile authorization server).
  if (options.hang) app.post(`/${options.hang}`, () => undefined);
  app.use(mcpAuthRouter({ provider, issuerUrl: base, resourceServerUrl: mcpUrl }));
  const bearer = requireBearerAuth({ verifier: provider, resourceMetadataUrl: getOAuthProtectedResourceMetadataUrl(mcpUrl) });
  app.post("/mcp", express.json(), bearer, async (req: Req, res: Res) => {
    // Stateless: a fresh server and transport per request.
    const mcp = new McpServer({ name: "oauth-test", version: "1.0.0" });
    mcp.registerTool("secret_echo", { description: "Echoes a message, for signed-in clients only", inputSchema: { message: z.string() } }, ({ message }) => ({
      content: [{ type: "text", text: `secured: ${message}` }],
    }));
    const transport = new StreamableHTTPServerTransport({ sessionIdGenerator: undefined });
    res.on("close", () => void transport.close().then(() => mcp.close()));
    await mcp.connect(transport);
    await transport.handleRequest(req, res, req.body);
  });
  app.get("/mcp", (_req: Req, res: Res) => void res.status(405).end());
  return {
    url: mcpUrl.href,
    provider,
    close: () => new Promise<void>((resolve) => server.close(() => resolve()).closeAllConnections()),
  };
}
