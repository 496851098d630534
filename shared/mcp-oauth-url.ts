/**
 * Checks of the URLs an MCP server's OAuth metadata makes us open or call. They come from a
 * server's documents, so a hostile server may name anything there: only an https page (or http
 * on this machine) of a sane length goes to the user's browser, and redirects come back only to
 * a loopback address.
 */

/** An authorization URL longer than this is refused (real ones stay far below). */
export const MAX_AUTHORIZATION_URL = 8192;

const LOOPBACK_HOSTS = new Set(["localhost", "127.0.0.1", "[::1]"]);

export const isLoopbackHost = (hostname: string): boolean => LOOPBACK_HOSTS.has(hostname.toLowerCase());

/** The authorization page to offer the user, or an error saying why it is refused. */
export function checkAuthorizationUrl(raw: string): URL {
  if (raw.length > MAX_AUTHORIZATION_URL) throw new Error(`the authorization URL is ${raw.length} characters long (more than ${MAX_AUTHORIZATION_URL}); refused`);
  if (/[\u0000-\u001f\u007f-\u009f\u2028\u2029\u202a-\u202e\u2066-\u2069]/.test(raw)) throw new Error("the authorization URL holds control or direction characters; refused");
  let url: URL;
  try {
    url = new URL(raw);
  } catch {
    throw new Error("the authorization URL is not a URL; refused");
  }
  const loopbackHttp = url.protocol === "http:" && isLoopbackHost(url.hostname);
  if (url.protocol !== "https:" && !loopbackHttp) throw new Error(`the authorization URL uses ${url.protocol.replace(/:$/, "")}, not https; refused`);
  if (url.username || url.password) throw new Error("the authorization URL carries a user name or password; refused");
  return url;
}

/** A configured `oauth.callbackUrl`: HTTP on localhost, 127.0.0.1 or [::1] (Pi's rule). */
export function checkCallbackUrl(raw: string): URL {
  const url = new URL(raw);
  if (url.protocol !== "http:" || !isLoopbackHost(url.hostname)) throw new Error(`oauth.callbackUrl must use http on localhost, 127.0.0.1 or [::1], not ${raw}`);
  return url;
}
