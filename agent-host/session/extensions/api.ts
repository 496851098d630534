/**
 * The `pi` object an extension's factory receives: registrations go into that extension's
 * record (LoadedExtension); session actions go to SessionActions. Features that need pi's
 * terminal (renderers, shortcuts) or its provider runtime are accepted and have no effect here.
 */
import type { TSchema } from "@sinclair/typebox";
import type { ProviderOverride } from "../../ai/models/registry";
import type { SessionActions } from "./actions";
import type { LoadedExtension } from "./runner";
import type { AnyHandler, EventBus, ExtensionAPI, ToolDefinition } from "./types";

/** pi.events: one bus shared by all extensions of the host. */
export function createEventBus(onError: (channel: string, error: unknown) => void): EventBus {
  const listeners = new Map<string, Set<(data: unknown) => void>>();
  return {
    emit(channel, data) {
      for (const listener of [...(listeners.get(channel) ?? [])]) {
        try {
          listener(data);
        } catch (error) {
          onError(channel, error);
        }
      }
    },
    on(channel, handler) {
      const set = listeners.get(channel) ?? new Set();
      listeners.set(channel, set);
      set.add(handler);
      return () => void set.delete(handler);
    },
  };
}

export function createExtensionApi(extension: LoadedExtension, actions: SessionActions, events: EventBus, warn: (message: string) => void): ExtensionAPI {
  const on = (event: string, handler: AnyHandler): (() => void) => {
    const registered: AnyHandler = (e, ctx) => handler(e, ctx);
    const list = extension.handlers.get(event) ?? [];
    list.push(registered);
    extension.handlers.set(event, list);
    return () => {
      const current = extension.handlers.get(event);
      const at = current?.indexOf(registered) ?? -1;
      if (current && at >= 0) current.splice(at, 1);
    };
  };
  const api: ExtensionAPI = {
    on: on as ExtensionAPI["on"],
    registerTool<TParams extends TSchema, TDetails>(tool: ToolDefinition<TParams, TDetails>) {
      if (typeof tool.parameters !== "object" || tool.parameters === null || Array.isArray(tool.parameters)) {
        throw new Error(`Tool "${tool.name}" registered by extension "${extension.path}" must define an object parameter schema.`);
      }
      extension.tools.set(tool.name, tool as unknown as ToolDefinition);
    },
    registerCommand(name, options) {
      extension.commands.set(name, options);
    },
    registerShortcut: () => undefined,
    registerFlag(name, options) {
      if (options.default !== undefined && typeof options.default !== options.type) {
        throw new Error(`Invalid default for flag "${name}": expected ${options.type}, got ${typeof options.default}`);
      }
      extension.flags.set(name, options.default);
    },
    getFlag: (name) => extension.flags.get(name),
    registerMessageRenderer: () => undefined,
    registerEntryRenderer: () => undefined,
    registerMarkdownTransformer: () => undefined,
    sendMessage: (message, options) => actions.sendMessage(message, options),
    sendUserMessage: (content, options) => actions.sendUserMessage(content, options),
    appendEntry: (customType, data) => actions.appendEntry(customType, data),
    setSessionName: (name) => actions.setSessionName(name),
    getSessionName: () => actions.getSessionName(),
    setLabel: (entryId, label) => actions.setLabel(entryId, label),
    exec: (command, args, options) => actions.exec(command, args, options),
    getActiveTools: () => actions.getActiveTools(),
    getAllTools: () => actions.getAllTools().map((t) => ({ name: t.name, description: t.description, parameters: t.parameters })),
    setActiveTools: (names) => actions.setActiveTools(names),
    getCommands: () => actions.getCommands(),
    setModel: (model) => actions.setModel(model),
    getThinkingLevel: () => actions.getThinkingLevel(),
    setThinkingLevel: (level) => actions.setThinkingLevel(level),
    registerProvider: (nameOrProvider, config) => {
      const name = typeof nameOrProvider === "string" ? nameOrProvider : String((nameOrProvider as { id?: unknown } | null)?.id ?? "?");
      const override = typeof nameOrProvider === "string" ? providerOverride(config) : undefined;
      if (override && actions.overrideProvider(name, override)) return;
      warn(`Extension ${extension.path}: registerProvider("${name}") is not supported by this agent host (only "baseUrl", "headers" and "apiKey" of a provider it knows); use models.json`);
    },
    unregisterProvider: (name) => void actions.overrideProvider(name, undefined),
    events,
  };
  return api;
}

const overridable = new Set(["baseUrl", "headers", "apiKey"]);

/** A legacy ProviderConfig that only re-points an existing provider (pi keeps its models then), else undefined. */
function providerOverride(config: unknown): ProviderOverride | undefined {
  if (typeof config !== "object" || config === null || Array.isArray(config)) return undefined;
  const entries = Object.entries(config as Record<string, unknown>).filter(([, value]) => value !== undefined);
  if (entries.length === 0 || entries.some(([key]) => !overridable.has(key))) return undefined;
  const { baseUrl, headers, apiKey } = Object.fromEntries(entries) as Record<string, unknown>;
  if (baseUrl !== undefined && (typeof baseUrl !== "string" || !/^https?:\/\//.test(baseUrl))) return undefined;
  if (apiKey !== undefined && typeof apiKey !== "string") return undefined;
  if (headers !== undefined && (typeof headers !== "object" || headers === null || Object.values(headers).some((v) => typeof v !== "string"))) return undefined;
  const result: ProviderOverride = Object.create(null) as ProviderOverride;
  if (typeof baseUrl === "string") result.baseUrl = baseUrl;
  if (typeof apiKey === "string") result.apiKey = apiKey;
  if (headers) result.headers = Object.assign(Object.create(null) as Record<string, string>, headers);
  return result;
}
