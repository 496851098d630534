/**
 * Where the home's secrets (protected-paths.ts homeSecrets) really are, remembered for the life of
 * the process: `~/.ssh -> dotfiles/ssh` hides `dotfiles/ssh`, and a command that renames the link
 * (`mv .ssh old`) must not make the folder it led to visible to the next command or to the file
 * tools. Each look adds what it finds; nothing is forgotten while the process lives.
 */
import { userInfo } from "node:os";
import { join } from "node:path";
import { realOrSame } from "../real-path";
import { homeSecrets } from "./protected-paths";

/** The one variable of an environment that says where home is. */
export type HomeEnv = { HOME?: string | undefined };

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

const looks = new Map<string, HomeLooks>();
/** The looks by home as given (its real path is taken at each look, not at each ask). */
const lastLookOf = new Map<string, HomeLooks>();

/**
 * Every place the secrets of `home` are or were at since this process first looked (home's own
 * spelling included), from a look at most `maxAgeMs` old (0: look now, as a sandbox being set up does).
 */
export function secretPlaces(home: string, maxAgeMs = LOOK_EVERY_MS): readonly SecretPlace[] {
  const now = performance.now();
  const recent = lastLookOf.get(home);
  if (recent && now - recent.lookedAt < maxAgeMs) return recent.answer;
  const realHome = realOrSame(home);
  let state = looks.get(realHome);
  if (!state) looks.set(realHome, (state = { places: new Map(), answer: [], lookedAt: now }));
  lastLookOf.set(home, state);
  const { places } = state;
  const before = places.size;
  for (const name of homeSecrets) {
    const at = join(realHome, name);
    if (!places.has(at)) places.set(at, name);
    const real = realOrSame(at);
    if (!places.has(real)) places.set(real, name);
  }
  if (places.size !== before || state.answer.length === 0) state.answer = [...places].map(([path, name]) => ({ name, path }));
  state.lookedAt = now;
  return state.answer;
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

/**
 * The homes whose secrets are hidden: `$HOME` and the account's home in the password database,
 * each once. ssh, gpg and git's credential store find `~` in the latter whatever `$HOME` says, so a
 * process started with `HOME` unset or pointing elsewhere (a service, a container's entry point)
 * hid nothing of the real home before.
 */
const sameAsAccount = new Map<string, boolean>();

export function secretHomes(env: HomeEnv): string[] {
  const account = accountHomeDir();
  if (!env.HOME || env.HOME === account) return account ? [account] : env.HOME ? [env.HOME] : [];
  let same = sameAsAccount.get(env.HOME);
  if (same === undefined) sameAsAccount.set(env.HOME, (same = !account || realOrSame(env.HOME) === realOrSame(account)));
  return same ? [env.HOME] : [env.HOME, account!];
}

/** The last combined answer of secretPlacesOfHomes, kept while its parts are the same arrays. */
let combined: { parts: readonly (readonly SecretPlace[])[]; answer: readonly SecretPlace[] } | undefined;

/** secretPlaces of every home of secretHomes. */
export function secretPlacesOfHomes(env: HomeEnv, maxAgeMs?: number): readonly SecretPlace[] {
  const parts = secretHomes(env).map((home) => secretPlaces(home, maxAgeMs));
  if (parts.length === 1) return parts[0]!;
  if (combined && combined.parts.length === parts.length && combined.parts.every((part, i) => part === parts[i])) return combined.answer;
  combined = { parts, answer: parts.flat() };
  return combined.answer;
}
