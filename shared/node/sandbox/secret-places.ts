/**
 * Where the home's secrets (protected-paths.ts homeSecrets) really are, remembered for the life of
 * the process: `~/.ssh -> dotfiles/ssh` hides `dotfiles/ssh`, and a command that renames the link
 * (`mv .ssh old`) must not make the folder it led to visible to the next command or to the file
 * tools. Each look adds what it finds; nothing is forgotten while the process lives.
 */
import { join } from "node:path";
import { realOrSame } from "../real-path";
import { homeSecrets } from "./protected-paths";

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

/**
 * Every place the secrets of `home` are or were at since this process first looked (home's own
 * spelling included), from a look at most `maxAgeMs` old (0: look now, as a sandbox being set up does).
 */
export function secretPlaces(home: string, maxAgeMs = LOOK_EVERY_MS): readonly SecretPlace[] {
  const realHome = realOrSame(home);
  const now = performance.now();
  let state = looks.get(realHome);
  if (state && now - state.lookedAt < maxAgeMs) return state.answer;
  if (!state) looks.set(realHome, (state = { places: new Map(), answer: [], lookedAt: now }));
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
