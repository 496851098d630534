/**
 * Where the home's secrets (protected-paths.ts homeSecrets) really are, remembered for the life of
 * the process: `~/.ssh -> dotfiles/ssh` hides `dotfiles/ssh`, and a command that renames the link
 * (`mv .ssh old`) must not make the folder it led to visible to the next command or to the file
 * tools. Each look adds what it finds; nothing is forgotten while the process lives.
 */
import { userInfo } from "node:os";
import { readdirSync } from "node:fs";
import { basename, dirname, join } from "node:path";
import { piAgentDir } from "../project-trust";
import { realOrSame, realPathOrSame } from "../real-path";
import { homeSecrets } from "./protected-paths";

/**
 * Where a home secret's tool reads it instead when a variable says so: the variable, the secret's
 * name, and where below the variable's path (`""`: the path itself; a list variable, KUBECONFIG,
 * names several). Before, the places under the default names alone were hidden: with
 * `KUBECONFIG=~/clusters/prod.yaml`, `DOCKER_CONFIG` or `XDG_CONFIG_HOME` set, commands read them.
 */
const movedBy: readonly { variable: MovingVariable; name: string; below: string }[] = [
  ...homeSecrets.filter((name) => name.startsWith(".config/")).map((name) => ({ variable: "XDG_CONFIG_HOME" as const, name, below: name.slice(".config/".length) })),
  { variable: "XDG_DATA_HOME", name: ".local/share/keyrings", below: "keyrings" },
  { variable: "DOCKER_CONFIG", name: ".docker/config.json", below: "config.json" },
  { variable: "GH_CONFIG_DIR", name: ".config/gh", below: "" },
  { variable: "GNUPGHOME", name: ".gnupg", below: "" },
  { variable: "AWS_SHARED_CREDENTIALS_FILE", name: ".aws", below: "" },
  { variable: "AWS_CONFIG_FILE", name: ".aws", below: "" },
  { variable: "KUBECONFIG", name: ".kube", below: "" },
  { variable: "CLOUDSDK_CONFIG", name: ".config/gcloud", below: "" },
  { variable: "AZURE_CONFIG_DIR", name: ".azure", below: "" },
  { variable: "CARGO_HOME", name: ".cargo/credentials", below: "credentials" },
  { variable: "CARGO_HOME", name: ".cargo/credentials.toml", below: "credentials.toml" },
  { variable: "PASSWORD_STORE_DIR", name: ".password-store", below: "" },
  { variable: "NPM_CONFIG_USERCONFIG", name: ".npmrc", below: "" },
];

const movingVariables = ["XDG_CONFIG_HOME", "XDG_DATA_HOME", "DOCKER_CONFIG", "GH_CONFIG_DIR", "GNUPGHOME", "AWS_SHARED_CREDENTIALS_FILE", "AWS_CONFIG_FILE", "KUBECONFIG", "CLOUDSDK_CONFIG", "AZURE_CONFIG_DIR", "CARGO_HOME", "PASSWORD_STORE_DIR", "NPM_CONFIG_USERCONFIG"] as const;
type MovingVariable = (typeof movingVariables)[number];

/** The variables of an environment that say where home is, Pi's agent dir if elsewhere, and where secrets are moved to. */
export type HomeEnv = { HOME?: string | undefined; PI_CODING_AGENT_DIR?: string | undefined } & { [variable in MovingVariable]?: string | undefined };

/** Those variables of a whole environment (a process's), for the doors that judge by the sandbox's places. */
export function homeEnvOf(env: NodeJS.ProcessEnv): HomeEnv {
  const picked: HomeEnv = { HOME: env.HOME, PI_CODING_AGENT_DIR: env.PI_CODING_AGENT_DIR };
  for (const variable of movingVariables) if (env[variable]) picked[variable] = env[variable];
  return picked;
}

/** The places the environment moves secrets to, each looked at (and remembered) as a home's are. */
function movedPlaces(env: HomeEnv, maxAgeMs: number): (readonly SecretPlace[])[] {
  const parts: (readonly SecretPlace[])[] = [];
  for (const { variable, name, below } of movedBy) {
    for (const value of (env[variable] ?? "").split(":")) {
      // Absolute only: a relative one depends on each tool's working directory.
      if (!value.startsWith("/")) continue;
      const at = below === "" ? { dir: dirname(value), below: basename(value) } : { dir: value, below };
      parts.push(lookAt(`moved:${name}`, at.dir, [{ name, below: at.below }], maxAgeMs));
    }
  }
  return parts;
}

/** A secret's name under home and a real place it is (or was) at. */
export interface SecretPlace {
  name: string;
  path: string;
}

interface HomeLooks {
  /** Every place found, path -> name. */
  places: Map<string, string>;
  /** The last look's answer and when it was taken. */
  answer: SecretPlace[];
  lookedAt: number;
}

/**
 * How long one look's answer serves. A look is ~30 existence checks; a file tool asks once per
 * file (grep's context lines, each read), so a search of 10,000 files looked 10,000 times (5 s:
 * bench/hidden-secret-checks.ts) and now about once a tenth of a second. A look misses only what
 * was linked within the interval, which only the agent itself can do in that time.
 */
const LOOK_EVERY_MS = 100;

/** The looks by kind and real folder. */
const looks = new Map<string, HomeLooks>();
/** The looks by kind and folder as given (its real path is taken at each look, not at each ask). */
const lastLookOf = new Map<string, HomeLooks>();

/**
 * Every place the secrets of `home` are or were at since this process first looked (home's own
 * spelling included), from a look at most `maxAgeMs` old (0: look now, as a sandbox being set up does).
 */
export function secretPlaces(home: string, maxAgeMs = LOOK_EVERY_MS): readonly SecretPlace[] {
  return lookAt("home", home, homeSecrets.map((name) => ({ name, below: name })), maxAgeMs);
}

/** Pi's own secrets, named as under ~/.pi/agent (a pi sandboxed whole is shown its own: visibleSecrets). */
const agentDirSecrets = ["auth.json", "models.json", "mcp-auth.json"].map((file) => ({ name: `.pi/agent/${file}`, below: file }));

/** Where `dir`'s entries `below` are or were (a look kept `maxAgeMs`), each with its name; `kind` keeps a home's looks apart from an agent dir's. */
function lookAt(kind: string, dir: string, entries: readonly { name: string; below: string }[], maxAgeMs: number): readonly SecretPlace[] {
  const now = performance.now();
  const recent = lastLookOf.get(`${kind}:${dir}`);
  if (recent && now - recent.lookedAt < maxAgeMs) return recent.answer;
  const realHome = realOrSame(dir);
  let state = looks.get(`${kind}:${realHome}`);
  if (!state) looks.set(`${kind}:${realHome}`, (state = { places: new Map(), answer: [], lookedAt: now }));
  lastLookOf.set(`${kind}:${dir}`, state);
  const { places } = state;
  const before = places.size;
  const listed = new Map<string, readonly string[]>();
  for (const { name, below } of entries) {
    const at = join(realHome, below);
    if (!places.has(at)) places.set(at, name);
    // A dangling link (~/.aws -> a folder not made yet) is followed: its target is the secret's place.
    const real = realPathOrSame(at);
    if (!places.has(real)) places.set(real, name);
    // Its copies beside it (a backup, a swap or lock file) are places of it too.
    for (const path of new Set([at, real])) {
      const folder = dirname(path);
      if (!listed.has(folder)) listed.set(folder, namesIn(folder));
      for (const entry of listed.get(folder)!) if (isCopyName(entry, basename(path)) && !places.has(join(folder, entry))) places.set(join(folder, entry), name);
    }
  }
  if (places.size !== before || state.answer.length === 0) state.answer = [...places].map(([path, name]) => ({ name, path }));
  state.lookedAt = now;
  return state.answer;
}

/**
 * Whether `name` is what an editor or a tool calls a copy of `base` beside it, or a user's backup
 * of it: `.netrc~`, `.ssh.bak`, `.aws-old`, `config.json.lock` (the name, then `.`, `~`, `-`, `_` or
 * `#`), emacs's `#.netrc#` and `.#.netrc`, vim's `.config.json.swp` of a name without a leading dot.
 * Before, only the name was hidden: vim's swap file of ~/.netrc beside it, emacs's backup, git's
 * lock file of ~/.git-credentials and `cp -r ~/.ssh ~/.ssh.bak` were read by commands and the tools.
 */
export function isCopyName(name: string, base: string): boolean {
  if (name === base || base === "") return false;
  if (name.startsWith(base) && /^[.~_#-]/.test(name.slice(base.length))) return true;
  if (name === `#${base}#` || name === `.#${base}`) return true;
  return !base.startsWith(".") && name.startsWith(`.${base}.`);
}

function namesIn(folder: string): readonly string[] {
  try {
    return readdirSync(folder);
  } catch {
    return [];
  }
}

/** The account's home in the password database (looked up once: it does not change while the process lives). */
let accountHome: { dir: string | undefined } | undefined;
function accountHomeDir(): string | undefined {
  if (!accountHome) {
    try {
      accountHome = { dir: userInfo().homedir || undefined };
    } catch {
      accountHome = { dir: undefined }; // no entry for this uid (a container's arbitrary user)
    }
  }
  return accountHome.dir;
}

const sameAsAccount = new Map<string, boolean>();

/**
 * The homes whose secrets are hidden: `$HOME` and the account's home in the password database,
 * each once. ssh, gpg and git's credential store find `~` in the latter whatever `$HOME` says, so a
 * process started with `HOME` unset or pointing elsewhere (a service, a container's entry point)
 * hid nothing of the real home before.
 */
export function secretHomes(env: HomeEnv): string[] {
  const account = accountHomeDir();
  if (!env.HOME || env.HOME === account) return account ? [account] : env.HOME ? [env.HOME] : [];
  let same = sameAsAccount.get(env.HOME);
  if (same === undefined) sameAsAccount.set(env.HOME, (same = !account || realOrSame(env.HOME) === realOrSame(account)));
  return same ? [env.HOME] : [env.HOME, account!];
}

/** The last combined answer of secretPlacesOfHomes, kept while its parts are the same arrays. */
let combined: { parts: readonly (readonly SecretPlace[])[]; answer: readonly SecretPlace[] } | undefined;

/**
 * Pi's agent dir when PI_CODING_AGENT_DIR puts it elsewhere than a home's `.pi/agent` (its
 * auth.json, models.json and mcp-auth.json were not hidden there before session 22).
 */
function agentDirElsewhere(env: HomeEnv, homes: readonly string[]): string | undefined {
  const home = homes[0];
  if (!env.PI_CODING_AGENT_DIR || home === undefined) return undefined;
  const dir = realOrSame(piAgentDir(env, home));
  return homes.some((h) => realOrSame(join(h, ".pi/agent")) === dir) ? undefined : dir;
}

/** secretPlaces of every home of secretHomes, and Pi's own secrets in an agent dir elsewhere. */
export function secretPlacesOfHomes(env: HomeEnv, maxAgeMs?: number): readonly SecretPlace[] {
  const homes = secretHomes(env);
  const parts = homes.map((home) => secretPlaces(home, maxAgeMs));
  const agentDir = agentDirElsewhere(env, homes);
  if (agentDir !== undefined) parts.push(lookAt("agent", agentDir, agentDirSecrets, maxAgeMs ?? LOOK_EVERY_MS));
  parts.push(...movedPlaces(env, maxAgeMs ?? LOOK_EVERY_MS));
  if (parts.length === 1) return parts[0]!;
  if (combined && combined.parts.length === parts.length && combined.parts.every((part, i) => part === parts[i])) return combined.answer;
  combined = { parts, answer: parts.flat() };
  return combined.answer;
}
