/**
 * The loaded extensions and their registrations, and event dispatch in load and registration
 * order. A handler that throws is reported as an `extension_error` event {extensionPath, event,
 * error} and the others still run; nothing an extension does stops the agent. Exception, as in
 * pi: a throwing `tool_call` handler blocks that call (fail-safe), with its message as the reason.
 */
import type { ImageContent, SlashCommand } from "../../../shared/protocol";
import type { AgentMessage } from "../../agent/types";
import type { AnyAgentTool } from "../../agent/tool";
import type { SourceInfo } from "../context/resources";
import type { ExtensionSource } from "./discovery";
import type {
  AnyHandler, CommandOptions, ContextEvent, ExtensionCommandContext, ExtensionContext, InputEventResult, NotifyEvent, ToolCallEvent,
  ToolCallEventResult, ToolDefinition, ToolResultEvent, ToolResultEventResult,
} from "./types";
import { errorText } from "../../../shared/error-text";

export interface LoadedExtension {
  path: string;
  sourceInfo: SourceInfo;
  handlers: Map<string, AnyHandler[]>;
  tools: Map<string, ToolDefinition>;
  commands: Map<string, CommandOptions>;
  flags: Map<string, boolean | string | undefined>;
}

export interface ExtensionError {
  extensionPath: string;
  event: string;
  error: string;
}

const isObject = (value: unknown): value is Record<string, unknown> => typeof value === "object" && value !== null;

export class ExtensionRunner {
  readonly extensions: LoadedExtension[] = [];
  /** Set by the binding: the contexts handlers and commands receive. */
  context!: () => ExtensionContext;
  commandContext!: () => ExtensionCommandContext;

  constructor(private readonly reportError: (error: ExtensionError) => void) {}

  add(source: ExtensionSource): LoadedExtension {
    const extension: LoadedExtension = { path: source.path, sourceInfo: source.sourceInfo, handlers: new Map(), tools: new Map(), commands: new Map(), flags: new Map() };
    this.extensions.push(extension);
    return extension;
  }

  remove(extension: LoadedExtension): void {
    const at = this.extensions.indexOf(extension);
    if (at >= 0) this.extensions.splice(at, 1);
  }

  report(extensionPath: string, event: string, error: unknown): void {
    this.reportError({ extensionPath, event, error: errorText(error) });
  }

  /** Asked for every agent event, thousands per streamed reply: a plain loop, nothing allocated. */
  hasHandlers(event: string): boolean {
    for (const extension of this.extensions) if ((extension.handlers.get(event)?.length ?? 0) > 0) return true;
    return false;
  }

  /** Handlers of `event` as [extension, handler], a snapshot (subscribing during dispatch does not change it). */
  private handlersOf(event: string): [LoadedExtension, AnyHandler][] {
    return this.extensions.flatMap((e) => (e.handlers.get(event) ?? []).map((h): [LoadedExtension, AnyHandler] => [e, h]));
  }

  async emit(event: NotifyEvent): Promise<void> {
    for (const [extension, handler] of this.handlersOf(event.type)) {
      try {
        await handler(event, this.context());
      } catch (error) {
        this.report(extension.path, event.type, error);
      }
    }
  }

  /** `event.input` is shared: handlers may change it in place, later ones see the change. */
  async emitToolCall(event: ToolCallEvent): Promise<ToolCallEventResult | undefined> {
    for (const [, handler] of this.handlersOf("tool_call")) {
      let result: unknown;
      try {
        result = await handler(event, this.context());
      } catch (error) {
        return { block: true, reason: errorText(error) };
      }
      if (isObject(result) && result.block === true) return { block: true, reason: typeof result.reason === "string" ? result.reason : "Blocked by extension" };
    }
    return undefined;
  }

  /** Each handler sees the changes of the ones before; the combined change, if any. */
  async emitToolResult(event: ToolResultEvent): Promise<ToolResultEventResult | undefined> {
    let changed = false;
    for (const [extension, handler] of this.handlersOf("tool_result")) {
      try {
        const result = await handler({ ...event }, this.context());
        if (!isObject(result)) continue;
        if (Array.isArray(result.content)) (event.content = result.content as ToolResultEvent["content"]), (changed = true);
        if ("details" in result) (event.details = result.details), (changed = true);
        if (typeof result.isError === "boolean") (event.isError = result.isError), (changed = true);
      } catch (error) {
        this.report(extension.path, "tool_result", error);
      }
    }
    return changed ? { content: event.content, details: event.details, isError: event.isError } : undefined;
  }

  /** Transforms chain; "handled" stops at once. */
  async emitInput(text: string, images: ImageContent[] | undefined, streamingBehavior?: "steer" | "followUp"): Promise<InputEventResult> {
    let current: { text: string; images?: ImageContent[] } = { text, ...(images ? { images } : {}) };
    let transformed = false;
    for (const [extension, handler] of this.handlersOf("input")) {
      try {
        const result = await handler({ type: "input", ...current, source: "rpc", ...(streamingBehavior ? { streamingBehavior } : {}) }, this.context());
        if (!isObject(result)) continue;
        if (result.action === "handled") return { action: "handled" };
        if (result.action === "transform" && typeof result.text === "string") {
          current = { text: result.text, ...(Array.isArray(result.images) ? { images: result.images as ImageContent[] } : current.images ? { images: current.images } : {}) };
          transformed = true;
        }
      } catch (error) {
        this.report(extension.path, "input", error);
      }
    }
    return transformed ? { action: "transform", ...current } : { action: "continue" };
  }

  /** The messages the model sees this turn, after every `context` handler. */
  async emitContext(messages: AgentMessage[]): Promise<AgentMessage[]> {
    let current = messages;
    for (const [extension, handler] of this.handlersOf("context")) {
      try {
        const event: ContextEvent = { type: "context", messages: structuredClone(current) };
        const result = await handler(event, this.context());
        if (isObject(result) && Array.isArray(result.messages)) current = result.messages as AgentMessage[];
      } catch (error) {
        this.report(extension.path, "context", error);
      }
    }
    return current;
  }

  /** Extension tools; the first registration of a name wins. */
  tools(wrap: (definition: ToolDefinition, extension: LoadedExtension) => AnyAgentTool): AnyAgentTool[] {
    const seen = new Set<string>();
    return this.extensions.flatMap((extension) =>
      [...extension.tools.values()].flatMap((definition) => (seen.has(definition.name) ? [] : (seen.add(definition.name), [wrap(definition, extension)]))),
    );
  }

  commands(): SlashCommand[] {
    const seen = new Set<string>();
    return this.extensions.flatMap((extension) =>
      [...extension.commands.entries()].flatMap(([name, options]): SlashCommand[] => {
        if (seen.has(name)) return [];
        seen.add(name);
        return [{ name, ...(options.description ? { description: options.description } : {}), source: "extension", sourceInfo: extension.sourceInfo }];
      }),
    );
  }

  /** The command `/name args` names, if an extension registered it. */
  findCommand(text: string): { name: string; args: string; options: CommandOptions } | undefined {
    const match = /^\/(\S+)(?:\s+([\s\S]*))?$/.exec(text.trim());
    if (!match) return undefined;
    const name = match[1];
    for (const extension of this.extensions) {
      const options = extension.commands.get(name);
      if (options) return { name, args: match[2] ?? "", options };
    }
    return undefined;
  }

  /** Runs `/name args` if an extension registered it (an error becomes extension_error); false otherwise. */
  async runCommand(text: string): Promise<boolean> {
    const found = this.findCommand(text);
    if (!found) return false;
    try {
      await found.options.handler(found.args, this.commandContext());
    } catch (error) {
      this.report(`command:${found.name}`, "command", error);
    }
    return true;
  }
}
