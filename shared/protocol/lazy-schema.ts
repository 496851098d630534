import type { Static, TSchema } from "@sinclair/typebox";

/**
 * A schema built on its first use (issue 31): loading a bundle builds none of the protocol's
 * schemas (~4 ms of the extension's activation when they were built at load), each is built when a
 * check, a document or another schema first needs it, and then kept (one object per schema).
 * Declared once, where it is owned, its type derived from it:
 *   export const Steer = lazySchema(() => Type.Object({ ... }));
 *   export type Steer = StaticOf<typeof Steer>;
 */
export type LazySchema<T extends TSchema = TSchema> = () => T;

export function lazySchema<T extends TSchema>(build: () => T): LazySchema<T> {
  let schema: T | undefined;
  return () => (schema ??= build());
}

/** The type a lazy schema describes. */
export type StaticOf<L extends LazySchema> = Static<ReturnType<L>>;

/** A table of schemas (or of records of schemas) by name, each built when first read (its keys known at once). */
export type LazyTable<B extends Record<string, () => unknown>> = { readonly [K in keyof B]: ReturnType<B[K]> };

/** What each builder of a table built: a builder that two tables hold is built once for both. */
const built = new WeakMap<() => unknown, unknown>();

/**
 * The schemas of `builders` as a table whose entries are built when first read: `Object.keys` and
 * `Object.hasOwn` build nothing; reading an entry (or `Object.values`) builds it, once.
 */
export function lazyTable<B extends Record<string, () => unknown>>(builders: B): LazyTable<B> {
  const table = {};
  for (const [key, build] of Object.entries(builders)) {
    const get = (): unknown => {
      if (!built.has(build)) built.set(build, build());
      return built.get(build);
    };
    Object.defineProperty(table, key, { enumerable: true, get });
  }
  return table as LazyTable<B>;
}
