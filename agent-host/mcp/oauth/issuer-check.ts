/**
 * RFC 9207 (the MCP authorization spec's defence against mix-ups): an authorization server whose
 * metadata says `authorization_response_iss_parameter_supported` names itself (`iss`) in every
 * answer it sends to the redirect. An answer without it, or naming another issuer, may come from
 * another server the user was sent to, and its code must not be sent to this one's token endpoint.
 * An `iss` is checked whenever it is there, advertised or not.
 */

/** Foreign text in a message: printable ASCII, short. */
const plain = (value: string): string => value.replace(/[^\x20-\x7e]/g, "").slice(0, 200);

/** The check of an authorization answer against the authorization server's metadata: why it is refused, or undefined. */
export function issuerCheck(metadata: unknown): (answer: URLSearchParams) => string | undefined {
  const fields = (typeof metadata === "object" && metadata !== null ? metadata : {}) as { issuer?: unknown; authorization_response_iss_parameter_supported?: unknown };
  const issuer = typeof fields.issuer === "string" ? fields.issuer : undefined;
  const required = fields.authorization_response_iss_parameter_supported === true;
  return (answer) => {
    const iss = answer.get("iss");
    if (iss === null) return required ? `the authorization server ${plain(issuer ?? "")} names itself (iss) in its answers, but this answer names no issuer (RFC 9207); it may come from another server` : undefined;
    if (issuer === undefined) return `the answer names the issuer ${plain(iss)}, but the authorization server's metadata names none (RFC 9207)`;
    if (iss !== issuer) return `the answer comes from the issuer ${plain(iss)}, not ${plain(issuer)}, the authorization server this sign-in went to (RFC 9207)`;
    return undefined;
  };
}
