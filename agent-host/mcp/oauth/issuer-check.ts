/**
 * RFC 9207 (the MCP authorization spec's defence against mix-ups): an authorization server whose
 * metadata says `authorization_response_iss_parameter_supported` names itself (`iss`) in every
 * answer it sends to the redirect. An answer without it, or naming another issuer, may come from
 * another server the user was sent to, and its code must not be sent to this one's token endpoint.
 * An `iss` is checked whenever it is there, advertised or not.
 */

/** Foreign text in a message: printable ASCII, short. */
const plain = (value: string): string => value.replace(/[^\x20-\x7e]/g, "").slice(0, 200);

/**
 * Two issuer identifiers as the same server: compared as parsed URLs (the spelling of scheme, host,
 * default port does not matter) with one trailing `/` tolerated (the SDK's is `String(new URL(…))`,
 * slash-suffixed; servers often send theirs without).
 */
function sameIssuer(a: string, b: string): boolean {
  const norm = (value: string): string => {
    try {
      return new URL(value).href.replace(/\/$/, "");
    } catch {
      return value.replace(/\/$/, "");
    }
  };
  return norm(a) === norm(b);
}

/**
 * The check of an authorization answer against the authorization server the sign-in went to:
 * why it is refused, or undefined. That server is `authorizationServerUrl`, the address discovery
 * fetched its metadata from, not the metadata's own `issuer`: nothing checks that a document names
 * the address it came from (RFC 8414 3.3; the SDK does not), and a hostile server's metadata
 * naming another server's issuer would let that server's answer, and its code, pass as its own (a
 * mix-up, what RFC 9207 is for). Without the address (an older discovery state), the metadata's.
 */
export function issuerCheck(metadata: unknown, authorizationServerUrl?: string): (answer: URLSearchParams) => string | undefined {
  const fields = (typeof metadata === "object" && metadata !== null ? metadata : {}) as { issuer?: unknown; authorization_response_iss_parameter_supported?: unknown };
  const issuer = authorizationServerUrl ?? (typeof fields.issuer === "string" ? fields.issuer : undefined);
  const required = fields.authorization_response_iss_parameter_supported === true;
  return (answer) => {
    const iss = answer.get("iss");
    if (iss === null) return required ? `the authorization server ${plain(issuer ?? "")} names itself (iss) in its answers, but this answer names no issuer (RFC 9207); it may come from another server` : undefined;
    if (issuer === undefined) return `the answer names the issuer ${plain(iss)}, but the authorization server's metadata names none (RFC 9207)`;
    if (!sameIssuer(iss, issuer)) return `the answer comes from the issuer ${plain(iss)}, not ${plain(issuer)}, the authorization server this sign-in went to (RFC 9207)`;
    return undefined;
  };
}
