/**
 * Under a sandbox that hides the home's secrets (`~/.ssh`, `~/.aws`, …: protected-paths.ts's
 * homeSecrets) from commands, the file tools, which run outside it, keep them hidden too: a path
 * whose real path lies in one is refused, and a search that starts above one (the home folder
 * opened as the workspace) leaves out what it found there. What `bash` cannot read, `read`,
 * `grep`, `find` and `ls` do not read either, nor `write` and `edit` write.
 */
import * as path from "node:path";
import { isInside, realOrSame } from "../../shared/node/real-path";
import { hiddenSecretOf, hiddenSecretsBelow } from "../../shared/node/sandbox/protected-match";
import { secretPlacesOfHomes, type HomeEnv } from "../../shared/node/sandbox/secret-places";
import type { PathGuard } from "./paths";

export interface HiddenPaths {
  /** Throws for a path that lies in a hidden secret. */
  guard: PathGuard;
  /**
   * For a search of `root`: which of its results (absolute, or relative to `root`) lie in a hidden
   * secret; undefined when none lies below `root` (the usual case: nothing to test).
   */
  below(root: string): ((result: string) => boolean) | undefined;
}

/** `env`: the homes whose secrets are hidden (`$HOME` and the account's: secret-places.ts secretHomes). */
export function hiddenHomeSecrets(env: HomeEnv): HiddenPaths {
  // Where the secrets are before the model acts (secret-places.ts remembers: a link renamed later still counts).
  secretPlacesOfHomes(env);
  return {
    guard: (absPath, asWritten) => {
      const secret = hiddenSecretOf(absPath, env);
      if (secret) throw new Error(`Refused: ${asWritten} is in ~/${secret}, which the sandbox hides from this agent.`);
    },
    below: (root) => {
      const secrets = hiddenSecretsBelow(root, env);
      if (secrets.length === 0) return undefined;
      const realRoot = realOrSame(root);
      // The searches follow no symlink below their root, so a result's real path is the root's real path and its place under it.
      return (result) => {
        const real = path.join(realRoot, path.isAbsolute(result) ? path.relative(root, result) : result);
        return secrets.some((secret) => isInside(secret, real));
      };
    },
  };
}
