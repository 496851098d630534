/**
 * One token refresh at a time per server, across processes. Many authorization servers rotate
 * refresh tokens (each is good once): two hosts (or a host and the pi CLI) refreshing with the same
 * token at once would lose the grant, and the loser's SDK then deletes the tokens the winner just
 * saved. The lock is pi 1.5.2's own (`extensions/mcp/oauth.js`): proper-lockfile on
 * `<agentDir>/mcp-auth-refresh-<first 16 hex of sha256(key)>`, 20 s staleness (a killed holder's
 * lock is taken over), up to 25 s of waiting, so pi and our host keep each other out too.
 *
 * `refreshingFetch` puts it where the SDK refreshes: the token request with a refresh grant. Under
 * the lock the stored tokens are read again: signed out meanwhile → refused (`invalid_grant`, the
 * SDK then asks for a sign-in; a sign-out is not undone); refreshed by another process meanwhile →
 * those tokens are the answer and the spent refresh token is never sent; else the request goes
 * out and its tokens are stored before the lock is let go.
 */
import { createHash } from "node:crypto";
import { mkdirSync } from "node:fs";
import { join } from "node:path";
import { boundedFetch } from "../../../shared/node/bounded-fetch";
import { PRIVATE_DIR_MODE } from "../../../shared/node/private-files";
import { mcpAuthKeys, storeTokens, type McpAuthSlot } from "./store";

const STALE_MS = 20_000;
const WAIT_MS = 25_000;
const RETRY_MS = 100;
/** The refresh request itself (the lock is held meanwhile). */
const REQUEST_MS = 15_000;

/** proper-lockfile, loaded with the first refresh or sign-out (start-up does not need it). */
const loadLockfile = (): typeof import("proper-lockfile") => require("proper-lockfile") as typeof import("proper-lockfile");

export function refreshLockPath(agentDir: string, name: string, serverUrl: string): string {
  const hash = createHash("sha256").update(mcpAuthKeys(name, serverUrl).key).digest("hex").slice(0, 16);
  return join(agentDir, `mcp-auth-refresh-${hash}`);
}

/** Runs `work` holding the server's refresh lock; throws when another process held it for the whole wait. */
export async function withRefreshLock<T>(lockPath: string, work: () => Promise<T>): Promise<T> {
  mkdirSync(join(lockPath, ".."), { recursive: true, mode: PRIVATE_DIR_MODE });
  const release = await loadLockfile()
    .lock(lockPath, {
      realpath: false,
      stale: STALE_MS,
      retries: { retries: WAIT_MS / RETRY_MS, factor: 1, minTimeout: RETRY_MS, maxTimeout: RETRY_MS },
      // The default throws from a timer; a lost lock at worst lets two refreshes overlap.
      onCompromised: () => undefined,
    })
    .catch((error: unknown) => {
      if ((error as NodeJS.ErrnoException).code === "ELOCKED") throw new Error("another process is refreshing this server's tokens");
      throw error;
    });
  try {
    return await work();
  } finally {
    await release().catch(() => undefined);
  }
}

/** The refresh token of a token request with a refresh grant, else undefined. */
function refreshTokenOf(init: RequestInit | undefined): string | undefined {
  if (init?.method?.toUpperCase() !== "POST") return undefined;
  const body = init.body;
  const params = body instanceof URLSearchParams ? body : typeof body === "string" ? new URLSearchParams(body) : undefined;
  return params?.get("grant_type") === "refresh_token" ? (params.get("refresh_token") ?? undefined) : undefined;
}

const json = (status: number, body: object): Response => new Response(JSON.stringify(body), { status, headers: { "content-type": "application/json", "cache-control": "no-store" } });

/** `inner` with the server's refreshes taken one at a time (see above); every other request passes through. */
export function refreshingFetch(slot: McpAuthSlot, lockPath: string, inner: typeof fetch = fetch): typeof fetch {
  return async (input, init) => {
    const sent = refreshTokenOf(init);
    if (sent === undefined) return inner(input, init);
    return withRefreshLock(lockPath, async () => {
      const state = slot.load();
      const stored = state.tokens;
      if (!stored?.refresh_token) return json(400, { error: "invalid_grant", error_description: "signed out while the refresh waited" });
      if (stored.refresh_token !== sent) {
        // Another process refreshed meanwhile: its tokens serve here too.
        const expiresIn = state.tokensExpireAt === undefined ? undefined : Math.max(0, Math.floor((state.tokensExpireAt - Date.now()) / 1000));
        const { access_token, token_type, refresh_token, scope } = stored;
        return json(200, { access_token, token_type, refresh_token, ...(typeof scope === "string" ? { scope } : {}), ...(expiresIn === undefined ? {} : { expires_in: expiresIn }) });
      }
      // Bounded: an authorization server that never answers must not hold every process's refresh.
      const response = await boundedFetch(inner, REQUEST_MS)(input, init);
      if (response.ok) {
        const tokens = (await response.clone().json().catch(() => undefined)) as Record<string, unknown> | undefined;
        // Stored before the lock is let go: the next process reads the new refresh token, not the spent one.
        // A server that does not rotate sends no refresh token: the one sent stays good (the SDK keeps it the same way).
        if (tokens && typeof tokens.access_token === "string" && typeof tokens.token_type === "string") storeTokens(slot, { refresh_token: sent, ...tokens } as Parameters<typeof storeTokens>[1]);
      }
      return response;
    });
  };
}
