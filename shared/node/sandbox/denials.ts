/**
 * Did the sandbox make a command fail? Read from the end of its output (the exit code says only
 * that it failed). A false "yes" costs one question; a false "no" leaves the model to read the
 * error itself — so the patterns are the errors the sandbox's refusals produce, broadly.
 */
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

/** Why the sandbox probably made `output` fail, or undefined. */
export function sandboxDenial(output: string, network: boolean): string | undefined {
  for (const refusal of refusals) {
    if (refusal.onlyOffline && network) continue;
    if (refusal.pattern.test(output)) return refusal.reason;
  }
  if (secretMention.test(output)) return "it read a secret the sandbox hides";
  return undefined;
}
