/**
 * Foreign data made inert: every object rebuilt with a null prototype and without the keys that
 * reach a prototype when assigned or looked up (`__proto__`, `constructor`, `prototype`). What
 * JSON.parse or a structured clone returns keeps `__proto__` as an own key; a later `out[key] =
 * value` (a merge, Object.assign's own loop, a spread into a literal with a computed key) would set
 * the prototype instead, and a lookup of `constructor` in a plain object finds Object.
 *
 * The walk is iterative, so data nested as deep as JSON.parse accepts never overflows the stack.
 * Platform-free.
 */

/** Keys that never appear in foreign data. */
export const FORBIDDEN_KEYS: ReadonlySet<string> = new Set(["__proto__", "constructor", "prototype"]);

/** A plain data object with no prototype: lookups find own keys only. */
export type ForeignRecord = { [key: string]: unknown };

/** Where a value sits, built into a path only when a notice needs it. */
interface Place {
  parent: Place | undefined;
  key: string | number;
}

/** `$.a.b[0]` for the notices: where a key was dropped. */
export function placePath(place: Place | undefined): string {
  const keys: (string | number)[] = [];
  for (let p = place; p; p = p.parent) keys.push(p.key);
  let out = "$";
  for (const key of keys.reverse()) {
    // Keys are foreign: quoted (so a newline or a control character shows escaped) and cut short.
    const shown = typeof key === "string" && key.length > 80 ? `${key.slice(0, 80)}…` : key;
    out += typeof shown === "number" ? `[${shown}]` : /^[A-Za-z_$][\w$]*$/.test(shown) ? `.${shown}` : `[${JSON.stringify(shown)}]`;
  }
  return out;
}

/**
 * A copy of `value` in which every object has a null prototype and no forbidden key; arrays stay
 * arrays (their elements copied the same way), primitives stay as they are. Anything that is not
 * JSON data (a function, a class instance's prototype chain) is copied as its own enumerable keys.
 * Each dropped key adds a notice naming where it was (`$` is the top).
 */
export function toInertData(value: unknown, notices: string[] = []): unknown {
  if (value === null || typeof value !== "object") return value;
  const root: { value: unknown } = { value: undefined };
  // Each job copies `source` into the slot `key` of `target`.
  const jobs: { source: object; target: Record<string | number, unknown>; key: string | number; place: Place | undefined }[] = [
    { source: value, target: root as unknown as Record<string, unknown>, key: "value", place: undefined },
  ];
  for (let job = jobs.pop(); job; job = jobs.pop()) {
    const { source, target, key, place } = job;
    if (Array.isArray(source)) {
      const copy: unknown[] = new Array<unknown>(source.length);
      target[key] = copy;
      for (let i = 0; i < source.length; i++) {
        const item: unknown = source[i];
        if (item !== null && typeof item === "object") jobs.push({ source: item, target: copy as unknown as Record<number, unknown>, key: i, place: { parent: place, key: i } });
        else copy[i] = item;
      }
      continue;
    }
    const copy = Object.create(null) as ForeignRecord;
    target[key] = copy;
    for (const name of Object.keys(source)) {
      if (FORBIDDEN_KEYS.has(name)) {
        notices.push(`${placePath({ parent: place, key: name })}: key dropped (it could reach a prototype)`);
        continue;
      }
      const item: unknown = (source as Record<string, unknown>)[name];
      // Set now, even for an object filled in later, so the copy keeps the source's key order.
      copy[name] = item;
      if (item !== null && typeof item === "object") jobs.push({ source: item, target: copy, key: name, place: { parent: place, key: name } });
    }
  }
  return root.value;
}

/** True when `value` is a non-array object (of any prototype). */
export function isRecord(value: unknown): value is ForeignRecord {
  return value !== null && typeof value === "object" && !Array.isArray(value);
}

/** Whether any object in `value` has a forbidden own key: a scan without copying (iterative). */
export function hasForbiddenKey(value: unknown): boolean {
  const stack: unknown[] = [value];
  while (stack.length > 0) {
    const item = stack.pop();
    if (item === null || typeof item !== "object") continue;
    if (Array.isArray(item)) {
      for (const element of item) if (element !== null && typeof element === "object") stack.push(element);
      continue;
    }
    for (const key of Object.keys(item)) {
      if (FORBIDDEN_KEYS.has(key)) return true;
      const child = (item as Record<string, unknown>)[key];
      if (child !== null && typeof child === "object") stack.push(child);
    }
  }
  return false;
}

/**
 * A structured-cloned value (a webview message), where a message stream pays the cost: copied as
 * `toInertData` does only when it holds a forbidden key; otherwise returned as it is (ordinary
 * objects whose own keys include no forbidden one).
 */
export function inertMessage(value: unknown, notices: string[] = []): unknown {
  return hasForbiddenKey(value) ? toInertData(value, notices) : value;
}
