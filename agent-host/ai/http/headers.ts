/**
 * WHATWG `Headers` in plain TypeScript. Node's own Headers lives in undici, and touching it loads
 * all of undici: ~13 MB of memory in a process that makes its requests through node:http
 * (./fetch.ts). The provider bundles of the host get this class in place of the global (esbuild's
 * `inject`, see esbuild.mjs), so the SDKs build their request headers with it.
 *
 * Names are case-insensitive and iterate lower-cased and sorted; values are trimmed; several
 * values of one name read as one, joined with ", " (Set-Cookie also one by one: getSetCookie).
 */
type Init = [string, string][] | Record<string, string> | { forEach(callback: (value: string, name: string) => void): void } | undefined | null;

export class HttpHeaders {
  private readonly byName = new Map<string, string[]>();

  constructor(init?: Init) {
    if (!init) return;
    if (Array.isArray(init)) {
      for (const pair of init) {
        if (pair.length !== 2) throw new TypeError("Headers: each pair must have a name and a value");
        this.append(pair[0], pair[1]);
      }
    } else if (typeof (init as { forEach?: unknown }).forEach === "function") {
      (init as { forEach(callback: (value: string, name: string) => void): void }).forEach((value, name) => this.append(name, value));
    } else {
      for (const [name, value] of Object.entries(init as Record<string, string>)) this.append(name, value);
    }
  }

  append(name: string, value: string): void {
    const key = checkedName(name);
    const list = this.byName.get(key);
    const clean = String(value).trim();
    if (list) list.push(clean);
    else this.byName.set(key, [clean]);
  }

  set(name: string, value: string): void {
    this.byName.set(checkedName(name), [String(value).trim()]);
  }

  delete(name: string): void {
    this.byName.delete(checkedName(name));
  }

  get(name: string): string | null {
    return this.byName.get(checkedName(name))?.join(", ") ?? null;
  }

  has(name: string): boolean {
    return this.byName.has(checkedName(name));
  }

  getSetCookie(): string[] {
    return [...(this.byName.get("set-cookie") ?? [])];
  }

  forEach(callback: (value: string, name: string, headers: HttpHeaders) => void, thisArg?: unknown): void {
    for (const [name, value] of this.entries()) callback.call(thisArg, value, name, this);
  }

  *entries(): IterableIterator<[string, string]> {
    for (const name of [...this.byName.keys()].sort()) {
      const list = this.byName.get(name)!;
      if (name === "set-cookie") for (const value of list) yield [name, value];
      else yield [name, list.join(", ")];
    }
  }

  *keys(): IterableIterator<string> {
    for (const [name] of this.entries()) yield name;
  }

  *values(): IterableIterator<string> {
    for (const [, value] of this.entries()) yield value;
  }

  [Symbol.iterator](): IterableIterator<[string, string]> {
    return this.entries();
  }

  get [Symbol.toStringTag](): string {
    return "Headers";
  }
}

const TOKEN = /^[!#$%&'*+\-.^_`|~0-9A-Za-z]+$/;

function checkedName(name: string): string {
  const text = String(name);
  if (!TOKEN.test(text)) throw new TypeError(`Headers: invalid header name "${text}"`);
  return text.toLowerCase();
}
