/**
 * Where a stored key may be sent. The gateway reads the routes from pi's models.json at each start,
 * a file the user edits and an agent may be able to write: a key goes only to its provider's own
 * default origin (the built-in providers of gateway-plan.ts) or to an origin the user approved for
 * that key, asked the first time and remembered. Plain data here; the asking is the caller's.
 */
import { builtInProviders, type GatewayProvider } from "./gateway-plan";

/** Asks (or recalls) whether `variable`'s key may go to `origin` for `provider`. */
export type OriginApproval = (variable: string, origin: string, provider: string) => Promise<boolean>;

const defaultOrigins = new Map<string, Set<string>>();
for (const p of builtInProviders) {
  const origins = defaultOrigins.get(p.variable) ?? new Set<string>();
  origins.add(new URL(p.baseUrl).origin);
  defaultOrigins.set(p.variable, origins);
}

/** The built-in provider's own origin for this key: never asked. */
export function isDefaultOrigin(variable: string, origin: string): boolean {
  return defaultOrigins.get(variable)?.has(origin) === true;
}

/** Splits the planned providers into those whose key may go where they point, and the refused. */
export async function approvedProviders(providers: readonly GatewayProvider[], approve: OriginApproval): Promise<{ approved: GatewayProvider[]; refused: GatewayProvider[] }> {
  const approved: GatewayProvider[] = [];
  const refused: GatewayProvider[] = [];
  for (const provider of providers) {
    const origin = new URL(provider.baseUrl).origin;
    const ok = isDefaultOrigin(provider.variable, origin) || (await approve(provider.variable, origin, provider.name));
    (ok ? approved : refused).push(provider);
  }
  return { approved, refused };
}
