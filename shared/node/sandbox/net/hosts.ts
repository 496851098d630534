/**
 * Host names as the network proxy compares them: one canonical form for a pattern, a CONNECT
 * target and an absolute URI alike (the WHATWG URL host parser: lower case, IDNA, percent-decoded,
 * `2130706433` / `0x7f.1` / `127.1` → `127.0.0.1`, IPv6 compressed in brackets), so no spelling of
 * a host matches a pattern that its canonical form would not. Patterns: `example.com` (that host),
 * `*.example.com` (its subdomains, not itself), either with `:port` (else any port); IP literals
 * only exactly (`127.0.0.1:8080`, `[::1]`).
 */
import { isIP } from "node:net";

export interface HostPattern {
  /** Canonical host (an IPv6 literal in brackets); for a wildcard, the suffix after `*.`. */
  host: string;
  wildcard: boolean;
  port?: number;
  /** The pattern as written, for messages. */
  text: string;
}

export interface Target {
  host: string;
  port: number;
}

const nameRule = /^[a-z0-9_-]+(\.[a-z0-9_-]+)*$/;
// Characters that would make the URL parser read a user, a path, a query or a fragment.
const notInAuthority = /[/?#@\\\s]/;

/** The canonical form of a bare host (no port), or undefined when it is not a plain host name or IP literal. */
export function canonicalHost(raw: string): string | undefined {
  if (!raw || notInAuthority.test(raw) || (raw.includes(":") && !raw.startsWith("["))) return undefined;
  let host: string;
  try {
    const url = new URL(`http://${raw}`);
    if (url.port !== "" || url.username || url.password) return undefined;
    host = url.hostname;
  } catch {
    return undefined;
  }
  host = host.endsWith(".") ? host.slice(0, -1) : host;
  if (host.startsWith("[")) return isIP(host.slice(1, -1)) === 6 ? host : undefined;
  return nameRule.test(host) ? host : undefined;
}

/** The canonical form of an address as the resolver or a socket gives it (`::ffff:7f00:1` → `[::ffff:7f00:1]`). */
export function canonicalAddress(address: string): string | undefined {
  const kind = isIP(address);
  if (kind === 4) return canonicalHost(address);
  if (kind === 6) return canonicalHost(`[${address}]`);
  return undefined;
}

export const isIpLiteral = (canonical: string): boolean => canonical.startsWith("[") || isIP(canonical) === 4;

function parsePort(text: string): number | undefined {
  if (!/^\d{1,5}$/.test(text)) return undefined;
  const port = Number(text);
  return port >= 1 && port <= 65535 ? port : undefined;
}

/** `host[:port]` (`[v6]:port` for IPv6); `requirePort` for CONNECT targets. */
export function parseAuthority(text: string, defaultPort?: number): Target | undefined {
  const match = /^(\[[^\]]*\]|[^:\]]*)(?::([^:]*))?$/.exec(text);
  if (!match) return undefined;
  const host = canonicalHost(match[1]);
  const port = match[2] === undefined ? defaultPort : parsePort(match[2]);
  return host && port !== undefined ? { host, port } : undefined;
}

/** A pattern from the user's list, or undefined (with nothing matched) when it is not one. */
export function parseHostPattern(text: string): HostPattern | undefined {
  const trimmed = text.trim();
  const wildcard = trimmed.startsWith("*.");
  const target = parseAuthority(wildcard ? trimmed.slice(2) : trimmed, 0);
  if (!target) return undefined;
  // `*.com` or `*.<ip>` would open far more than anyone means.
  if (wildcard && (isIpLiteral(target.host) || !target.host.includes("."))) return undefined;
  return { host: target.host, wildcard, ...(target.port ? { port: target.port } : {}), text: trimmed };
}

export function matches(pattern: HostPattern, target: Target): boolean {
  if (pattern.port !== undefined && pattern.port !== target.port) return false;
  return pattern.wildcard ? target.host.endsWith(`.${pattern.host}`) : target.host === pattern.host;
}

export const formatTarget = (target: Target): string => `${target.host}:${target.port}`;
