/**
 * Did the sandbox make a command fail? Read from the end of its output (the exit code says only
 * that it failed). A false "yes" costs one question; a false "no" leaves the model to read the
 * error itself — so the patterns are the errors the sandbox's refusals produce, broadly.
 */
import type { NetworkKind } from "./policy";
import { homeSecrets } from "./protected-paths";

const refusals: readonly { pattern: RegExp; reason: string; onlyOffline?: boolean }[] = [
  { pattern: /read-only file system|\bEROFS\b/i, reason: "it wrote where the sandbox allows no writes" },
  { pattern: /permission denied|\bEACCES\b|operation not permitted|\bEPERM\b/i, reason: "permission denied (the sandbox may have refused it)" },
  { pattern: /^bwrap: /m, reason: "the sandbox could not be set up for it" },
  // /tmp inside is the session's own: a host path under it is not there.
  { pattern: /\/tmp\/\S*: no such file or directory|no such file or directory[^\n]*\/tmp\//i, reason: "the sandbox has a /tmp of its own (the host's /tmp is not visible)" },
  {
    pattern: /network is unreachable|\bENETUNREACH\b|could not resolve|temporary failure in name resolution|name or service not known|\bEAI_AGAIN\b|\bENOTFOUND\b|getaddrinfo|connection refused|\bECONNREFUSED\b|no route to host|failed to connect|unable to access '?https?:/i,
    reason: "the sandbox has no network",
    onlyOffline: true,
  },
];

const secretMention = new RegExp(`(${homeSecrets.map((s) => s.replace(/[.*+?^${}()|[\]\\]/g, "\\$&")).join("|")}).*(no such file|not found|cannot open|not a directory)`, "i");

/** The reason phrase and body of net/proxy.ts's refusal, when a client printed them. */
const proxyRefusalNaming = /Forbidden by the Pi sandbox: (\S+?) is (?:not an allowed host|a private address)/;
/** How clients report a proxy's refusal (curl, Python, Node's tunnels, git, wget, pip). */
const proxyRefusal = /CONNECT tunnel failed, response 40[35]|Received HTTP code 40[35] from proxy|Tunnel connection failed: 40[35]|statusCode=40[35]|\bproxy\b[^\n]*\b40[35]\b|\b40[35]\b[^\n]*\bproxy\b|\b40[35] Forbidden by the Pi sandbox|ERROR 403: Forbidden/i;

const allowHint = "pi.sandbox.allowedHosts (or --sandbox-allow-host) allows a host";

/**
 * Why the sandbox probably made `output` fail, or undefined. `network` true is "on", false "off";
 * with "proxy", `refusedHosts` are the hosts the proxy refused while the command ran.
 */
export function sandboxDenial(output: string, network: boolean | NetworkKind, refusedHosts: readonly string[] = []): string | undefined {
  const kind: NetworkKind = network === true ? "on" : network === false ? "off" : network;
  if (kind === "proxy") {
    const named = proxyRefusalNaming.exec(output)?.[1];
    const hosts = [...new Set([...(named ? [named] : []), ...refusedHosts])];
    // A refusal while the command ran explains a failure that reads like one (any 403, a network error).
    if (hosts.length > 0 && (named || proxyRefusal.test(output) || /\b403\b|forbidden/i.test(output) || refusals.some((r) => r.onlyOffline && r.pattern.test(output)))) {
      return `the sandbox's network proxy refused ${hosts.join(", ")} (not an allowed host; ${allowHint})`;
    }
    if (proxyRefusal.test(output)) return `the sandbox's network proxy refused a host (${allowHint})`;
  }
  for (const refusal of refusals) {
    if (refusal.onlyOffline && kind === "on") continue;
    if (refusal.pattern.test(output)) return refusal.onlyOffline && kind === "proxy" ? `the sandbox has no network of its own: only allowed hosts, through its proxy (${allowHint})` : refusal.reason;
  }
  if (secretMention.test(output)) return "it read a secret the sandbox hides";
  return undefined;
}
