import { MessageStreamBuilder } from "./message-stream-builder";
import type { LlmProvider } from "./provider";
import type { Context, Model, StreamOptions } from "./types";

/** One scripted reply of the faux provider. */
export interface FauxTurn {
  thinking?: string;
  text?: string | string[];
  toolCalls?: { id?: string; name: string; arguments: Record<string, unknown> }[];
  /** Fail with this message instead of answering. */
  error?: string;
  /** Wait this long between chunks (ms). */
  delayMs?: number;
  /** Never finish (until aborted). */
  hang?: boolean;
  usage?: { input: number; output: number };
}

export type FauxScript = (context: Context, model: Model) => FauxTurn;

const scripts = new Map<string, FauxScript>();
let callCount = 0;

/** Scripts the faux model `modelId` (deterministic tests and clearly labelled demos). */
export function setFauxScript(modelId: string, script: FauxScript | FauxTurn[]): void {
  if (typeof script === "function") {
    scripts.set(modelId, script);
    return;
  }
  const queue = [...script];
  scripts.set(modelId, () => queue.shift() ?? { text: "(faux: script exhausted)" });
}

const sleep = (ms: number, signal?: AbortSignal) =>
  new Promise<void>((resolve) => {
    if (signal?.aborted) return resolve();
    const timer = setTimeout(resolve, ms);
    signal?.addEventListener("abort", () => (clearTimeout(timer), resolve()), { once: true });
  });

export const fauxProvider: LlmProvider = {
  api: "faux",
  stream(model, context, options: StreamOptions) {
    const builder = new MessageStreamBuilder(model);
    const script: FauxScript = scripts.get(model.id) ?? (() => ({ text: "This is the faux provider: a scripted stand-in for a model, for tests and demos." }));
    void (async () => {
      const turn = script(context, model);
      const delay = turn.delayMs ?? 0;
      const aborted = () => options.signal?.aborted === true;
      builder.start();
      builder.setResponseId(`faux-${++callCount}`);
      if (turn.thinking) builder.thinking("thinking", turn.thinking);
      for (const chunk of typeof turn.text === "string" ? [turn.text] : (turn.text ?? [])) {
        if (delay) await sleep(delay, options.signal);
        if (aborted()) return builder.fail(undefined, true);
        builder.text("text", chunk);
      }
      for (const [i, call] of (turn.toolCalls ?? []).entries()) {
        const key = `tool-${i}`;
        builder.toolCallStart(key, call.id ?? `faux_call_${callCount}_${i}`, call.name);
        builder.toolCallArguments(key, JSON.stringify(call.arguments));
        builder.end(key);
      }
      if (turn.hang) {
        await new Promise<void>((resolve) => options.signal?.addEventListener("abort", () => resolve(), { once: true }));
        return builder.fail(undefined, true);
      }
      if (aborted()) return builder.fail(undefined, true);
      if (turn.error) return builder.fail(new Error(turn.error), false);
      builder.usage({ input: turn.usage?.input ?? 0, output: turn.usage?.output ?? 0 });
      builder.finish("stop");
    })().catch((error: unknown) => builder.fail(error, false));
    return builder.stream;
  },
};
