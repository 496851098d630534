/**
 * Runs a compiled extension module and returns its factory (the default export, or the module
 * itself when it exports one function). `require` inside the extension sees pi's virtual
 * modules first, then resolves like Node from the extension's own folder (its node_modules).
 */
import { createRequire, Module } from "node:module";
import { dirname } from "node:path";
import { vm } from "../../tools/lazy-node";
import type { ExtensionCompiler } from "./compiler";
import type { ExtensionFactory } from "./types";
import { virtualModule } from "./virtual-modules";

type ModuleWrapper = (exports: object, require: NodeJS.Require, module: { exports: unknown }, filename: string, dirname: string) => void;

export class ExtensionLoadError extends Error {}

export async function importExtension(path: string, compiler: ExtensionCompiler): Promise<ExtensionFactory> {
  const code = await compiler.compile(path);
  const nodeRequire = createRequire(path);
  const extensionRequire = Object.assign((id: string): unknown => virtualModule(id) ?? nodeRequire(id), {
    resolve: nodeRequire.resolve,
    cache: nodeRequire.cache,
    main: nodeRequire.main,
    extensions: nodeRequire.extensions,
  }) as NodeJS.Require;
  const wrapper = vm().runInThisContext(Module.wrap(code), { filename: path }) as ModuleWrapper;
  const module: { exports: unknown } = { exports: {} };
  wrapper(module.exports as object, extensionRequire, module, path, dirname(path));
  const exported = module.exports;
  const factory = typeof exported === "function" ? exported : (exported as { default?: unknown } | null)?.default;
  if (typeof factory !== "function") throw new ExtensionLoadError(`Extension does not export a valid factory function: ${path}`);
  return factory as ExtensionFactory;
}
