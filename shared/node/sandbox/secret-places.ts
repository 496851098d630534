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

const seen = new Map<string, Map<string, string>>();

/** Every place the secrets of `home` are or were at since this process first looked (home's own spelling included). */
export function secretPlaces(home: string): SecretPlace[] {
  const realHome = realOrSame(home);
  let places = seen.get(realHome);
  if (!places) seen.set(realHome, (places = new Map()));
  for (const name of homeSecrets) {
    const at = join(realHome, name);
    if (!places.has(at)) places.set(at, name);
    const real = realOrSame(at);
    if (!places.has(real)) places.set(real, name);
  }
  return [...places].map(([path, name]) => ({ name, path }));
}
