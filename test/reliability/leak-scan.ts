/**
 * Secret scanning for the reliability and VS Code suites: every place (a file, a stream, a DOM)
 * is searched for each secret, whole and by its distinctive middle (a key shortened for display
 * still leaks that part).
 */
import { existsSync, readdirSync, readFileSync, statSync } from "node:fs";
import { join } from "node:path";

export interface Place {
  name: string;
  text: string;
}

export interface Leak {
  place: string;
  secret: string;
}

/** A throw-away key that looks like a real one and appears nowhere else. */
export function fakeSecret(prefix: string): string {
  const random = Array.from({ length: 32 }, () => "abcdefghijklmnopqrstuvwxyz0123456789"[Math.floor(Math.random() * 36)]).join("");
  return `${prefix}${random}`;
}

/** Every file under `dir` (recursively) as a place; missing folders give none. */
export function filePlaces(dir: string, label = dir): Place[] {
  if (!existsSync(dir)) return [];
  if (statSync(dir).isFile()) return [{ name: label, text: readFileSync(dir, "latin1") }];
  return readdirSync(dir, { withFileTypes: true }).flatMap((entry) => filePlaces(join(dir, entry.name), `${label}/${entry.name}`));
}

export function scanForSecrets(places: readonly Place[], secrets: readonly string[]): Leak[] {
  const leaks: Leak[] = [];
  for (const place of places) {
    for (const secret of secrets) {
      const middle = secret.slice(Math.floor(secret.length / 4), Math.floor((secret.length * 3) / 4));
      if (place.text.includes(secret) || place.text.includes(middle)) leaks.push({ place: place.name, secret: `${secret.slice(0, 6)}…` });
    }
  }
  return leaks;
}
