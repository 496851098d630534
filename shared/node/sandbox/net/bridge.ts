/**
 * The bridge inside a sandbox with allowed hosts (its own network namespace: loopback only): a tiny
 * node program that listens on 127.0.0.1 (a free port), forwards each connection to the proxy's
 * unix socket (bind-mounted read-only at `bridgeSocket`), and runs the command as its child with
 * HTTP_PROXY, HTTPS_PROXY, ALL_PROXY (and the lower-case forms) pointing at itself and NO_PROXY
 * for loopback (the sandbox's own: its servers), less a loopback address the allowed hosts name
 * literally (that one means the host's, through the proxy); NODE_USE_ENV_PROXY=1 so Node's own
 * fetch (22.21+, 24+) takes the proxy too. It listens before the command starts and exits with the command, with its code
 * (a signal becomes 128 + its number, as the shell reports it). Node, because it is there already
 * (the host runs on it); no package to install.
 */

/** Where the proxy's folder is mounted inside the sandbox (under its private /tmp). */
import type { HostPattern } from "./hosts";

export const bridgeMount = "/tmp/.pi-net";
export const bridgeSocket = `${bridgeMount}/proxy.sock`;

// Plain JavaScript, run with `node -e`: argv = [socket, keep ELECTRON_RUN_AS_NODE (1/0), NO_PROXY, command...].
const bridgeSource = `
const net = require("node:net"), cp = require("node:child_process"), os = require("node:os");
const [sock, keepElectron, noProxy, file, ...args] = process.argv.slice(1);
const server = net.createServer((c) => {
  const u = net.connect(sock);
  c.on("error", () => u.destroy()); u.on("error", () => c.destroy());
  c.on("close", () => u.destroy()); u.on("close", () => c.destroy());
  c.pipe(u); u.pipe(c);
});
server.on("error", (e) => { process.stderr.write("sandbox network bridge: " + e.message + "\\n"); process.exit(126); });
server.listen(0, "127.0.0.1", () => {
  const url = "http://127.0.0.1:" + server.address().port;
  const env = { ...process.env };
  for (const n of ["HTTP_PROXY", "HTTPS_PROXY", "ALL_PROXY"]) env[n] = env[n.toLowerCase()] = url;
  env.NO_PROXY = env.no_proxy = noProxy;
  env.NODE_USE_ENV_PROXY = "1";
  if (keepElectron !== "1") delete env.ELECTRON_RUN_AS_NODE;
  const child = cp.spawn(file, args, { stdio: "inherit", env });
  for (const s of ["SIGINT", "SIGTERM", "SIGHUP"]) process.on(s, () => child.kill(s));
  child.on("error", (e) => { process.stderr.write(file + ": " + e.message + "\\n"); process.exit(127); });
  child.on("exit", (code, signal) => process.exit(code ?? 128 + (os.constants.signals[signal] || 0)));
});
`;

/**
 * The argv that runs `command` behind the bridge, and what bwrap must set for it. `node` is the
 * host's own runtime; under Electron (the editor's host) it runs as node through
 * ELECTRON_RUN_AS_NODE, which the command keeps only if its environment had it.
 */
export function bridgeCommand(node: string, command: readonly string[], commandEnv: NodeJS.ProcessEnv, allowed: readonly HostPattern[]): { argv: string[]; setenv: Record<string, string> } {
  const keep = commandEnv.ELECTRON_RUN_AS_NODE === undefined ? "0" : "1";
  const named = new Set(allowed.filter((p) => !p.wildcard).map((p) => p.host));
  const noProxy = ["localhost", "127.0.0.1", "[::1]"].filter((host) => !named.has(host)).map((h) => h.replace(/^\[|\]$/g, "")).join(",");
  const setenv: Record<string, string> = process.versions.electron ? { ELECTRON_RUN_AS_NODE: "1" } : {};
  return { argv: [node, "-e", bridgeSource, bridgeSocket, keep, noProxy, ...command], setenv };
}
