// Checks the foreign-JSON tests share (issue #30): no forbidden key anywhere, Object.prototype as Node made it.
import { strict as assert } from "node:assert";

const FORBIDDEN = ["__proto__", "constructor", "prototype"];
const PRISTINE = new Set(Object.getOwnPropertyNames(Object.prototype));

/** Every object in `value` (itself included), depth first. */
export function objectsIn(value: unknown): object[] {
  if (value === null || typeof value !== "object") return [];
  return [value, ...Object.values(value).flatMap(objectsIn)];
}

/** No object in `value` has `__proto__`, `constructor` or `prototype` as an own key. */
export function assertNoForbiddenKeys(value: unknown, what = JSON.stringify(value)): void {
  for (const object of objectsIn(value)) for (const key of FORBIDDEN) assert.ok(!Object.hasOwn(object, key), `${key} in ${what}`);
}

/** Object.prototype has exactly the properties it had when this module loaded. */
export function assertPrototypePristine(): void {
  const now = Object.getOwnPropertyNames(Object.prototype);
  assert.deepEqual(now.filter((name) => !PRISTINE.has(name)), [], "Object.prototype gained properties");
}
