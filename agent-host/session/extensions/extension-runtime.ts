/**
 * The packages pi supplies to extensions (its loader's VIRTUAL_MODULES): an extension imports
 * them without installing anything. Here they are our own TypeBox and small stand-ins for the
 * pi packages: the runtime helpers extensions call (StringEnum, defineTool, isToolCallEventType,
 * withFileMutationQueue, truncation) and inert stubs for terminal components, which only pi's
 * TUI would render. In dist/ this is its own bundle (extension-runtime.js), loaded the first time
 * an extension imports one of them (virtual-modules.ts): TypeBox in full is a third of the host.
 */
import * as TypeBox from "@sinclair/typebox";
import { DEFAULT_MAX_BYTES, DEFAULT_MAX_LINES, formatSize, truncateHead, truncateLine, truncateTail } from "../../tools/truncate";

/** A terminal component or helper pi's TUI would provide: constructible, callable, renders nothing. */
function inert(this: unknown): unknown {
  if (new.target) return Object.assign(Object.create(null) as object, { render: () => [], invalidate: () => undefined, dispose: () => undefined });
  return undefined;
}

/** A module object: the named values, plus an inert stub for any other name imported from it. */
function moduleWithStubs(values: Record<string, unknown>): object {
  return new Proxy(values, {
    get: (target, key) => (typeof key === "string" && !(key in target) && key !== "then" && key !== "__esModule" ? inert : Reflect.get(target, key)),
  });
}

function StringEnum<T extends readonly string[]>(values: T, options: Record<string, unknown> = {}): TypeBox.TUnsafe<T[number]> {
  return TypeBox.Type.Unsafe<T[number]>({ type: "string", enum: [...values], ...options });
}

const queues = new Map<string, Promise<unknown>>();
/** Runs read-modify-write work on one file after the earlier work on that file has finished. */
function withFileMutationQueue<T>(path: string, work: () => Promise<T>): Promise<T> {
  const previous = queues.get(path) ?? Promise.resolve();
  const next = previous.then(work, work);
  const settled = next.catch(() => undefined); // the caller gets `next` and its error; the queue only waits
  queues.set(path, settled);
  void settled.then(() => queues.get(path) === settled && queues.delete(path));
  return next;
}

const toolNameIs = (name: string) => (event: { toolName?: string }) => event.toolName === name;

const codingAgent = (): object =>
  moduleWithStubs({
    defineTool: <T>(tool: T): T => tool,
    isToolCallEventType: (name: string, event: { toolName?: string }) => event.toolName === name,
    isBashToolResult: toolNameIs("bash"),
    isReadToolResult: toolNameIs("read"),
    isEditToolResult: toolNameIs("edit"),
    isWriteToolResult: toolNameIs("write"),
    isGrepToolResult: toolNameIs("grep"),
    isFindToolResult: toolNameIs("find"),
    isLsToolResult: toolNameIs("ls"),
    isPowerShellToolResult: toolNameIs("powershell"),
    withFileMutationQueue,
    DEFAULT_MAX_LINES,
    DEFAULT_MAX_BYTES,
    formatSize,
    truncateHead,
    truncateTail,
    truncateLine,
  });

const piAi = (): object => moduleWithStubs({ ...TypeBox, StringEnum });
const typeboxValue = (): object => require("@sinclair/typebox/value") as object;
const typeboxCompiler = () => require("@sinclair/typebox/compiler") as typeof import("@sinclair/typebox/compiler");
const typeboxCompile = (): object => {
  const compiler = typeboxCompiler();
  return { ...compiler, Compile: (schema: TypeBox.TSchema) => compiler.TypeCompiler.Compile(schema) };
};

const factories: Record<string, () => object> = {
  typebox: () => TypeBox,
  "typebox/value": typeboxValue,
  "typebox/compile": typeboxCompile,
  "@sinclair/typebox": () => TypeBox,
  "@sinclair/typebox/value": typeboxValue,
  "@sinclair/typebox/compiler": typeboxCompiler,
  "@sinclair/typebox/compile": typeboxCompile,
};
for (const scope of ["@earendil-works", "@mariozechner"]) {
  factories[`${scope}/pi-coding-agent`] = codingAgent;
  factories[`${scope}/pi-ai`] = piAi;
  factories[`${scope}/pi-ai/compat`] = piAi;
  factories[`${scope}/pi-tui`] = () => moduleWithStubs({});
  factories[`${scope}/pi-agent-core`] = () => moduleWithStubs({});
}

const made = new Map<string, object>();

/** The module pi would supply for `specifier`, or undefined when Node should resolve it. */
export function virtualModule(specifier: string): object | undefined {
  const factory = factories[specifier];
  if (!factory) return undefined;
  let module = made.get(specifier);
  if (!module) made.set(specifier, (module = factory()));
  return module;
}

