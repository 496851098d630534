/**
 * The `codemode` tool (Pi 1.x): the model writes a JavaScript script that calls other tools; the
 * script runs in a QuickJS sandbox in a worker thread (sandbox.ts), and only its output reaches
 * the model. A script's `tools.<name>()` goes through the agent loop's path for tool calls (the
 * nested runner: argument validation, the permission questions, tool events with
 * `parentToolCallId`), and reaches only the tools the exposure lets scripts reach: declared
 * tools, and MCP tools with `codemode` or `deferred` exposure, never hidden or filtered-out ones.
 */
import type { AgentTool, AgentToolResult, NestedToolRunner } from "../../agent/tool";
import { CODEMODE, CODEMODE_DESCRIPTION, codemodeSchema, scriptIdentifier } from "./description";
import { discover, findTool, listEntry, type CallableTool } from "./discovery";
import { resultContent, type CallRecord } from "./output";
import { runScript } from "./sandbox";
import { memoryStore, type CodemodeStore } from "./store";
import { parseSource } from "./source";
import type { Static } from "@sinclair/typebox";
import { errorText } from "../../../shared/error-text";

export interface CodemodeSource {
  /** The tools a script may call now (codemode itself never). */
  callable(): CallableTool[];
  /** Where store() writes and load() reads (default: memory, for the tool's life). */
  store?: CodemodeStore;
  /** Resolves once the servers a script reaches (`all`, or those a word of the script names) have connected or failed. */
  settled(reach: ScriptReach): Promise<void>;
}

interface CallRow extends CallRecord {
  id: string;
  args: string;
  durationMs?: number;
  error?: string;
}

export interface CodemodeDetails {
  calls: CallRow[];
  /** Calls made beyond the recorded ones. */
  omittedCalls?: number;
}

const MAX_RECORDED_CALLS = 256;
/**
 * Tool calls one script has running at once; more wait for a free slot, so `Promise.all` over many
 * items is fine and a server is not sent hundreds of requests together. (Pi caps a script's model
 * calls at 4 and leaves tool calls uncapped; ours are capped too.)
 */
export const MAX_SCRIPT_CALLS = 8;
const PUBLISH_MS = 100;
/** How long a script's end waits for its cancelled calls to end (a tool that ignores its signal is not waited for longer). */
const CANCEL_WAIT_MS = 5000;

const textOf = (result: AgentToolResult): string => result.content.filter((c) => c.type === "text").map((c) => (c as { text: string }).text).join("\n");
const preview = (value: unknown, max: number): string => {
  const text = JSON.stringify(value) ?? "";
  return text.length > max ? `${text.slice(0, max - 3)}...` : text;
};

/** Every server, or the words of the script (a server is reached when a word contains `mcp__<server>`). */
export type ScriptReach = "all" | string[];

/** Globals that list or look up tools, which a script may then call by any name (Pi's rule). */
const DISCOVERY = /\b(searchTools|describeNamespace|describeTool|ALL_TOOLS)\b/;

export function scriptReach(code: string): ScriptReach {
  return DISCOVERY.test(code) ? "all" : (code.match(/\w+/g) ?? []);
}

/** A counting semaphore: `take` resolves with a release once fewer than `size` are taken (at once when aborted: the call then fails fast). */
function slotsOf(size: number): { take(signal: AbortSignal): Promise<() => void> } {
  let taken = 0;
  const waiting: (() => void)[] = [];
  const release = (): void => {
    const next = waiting.shift();
    if (next) next();
    else taken--;
  };
  return {
    take(signal) {
      if (taken < size) {
        taken++;
        return Promise.resolve(once(release));
      }
      return new Promise((resolve) => {
        const grant = (): void => {
          signal.removeEventListener("abort", give);
          resolve(once(release));
        };
        // Aborted while waiting: run at once (the call sees the abort and ends), holding no slot.
        const give = (): void => {
          const at = waiting.indexOf(grant);
          if (at >= 0) waiting.splice(at, 1);
          resolve(() => undefined);
        };
        waiting.push(grant);
        signal.addEventListener("abort", give, { once: true });
      });
    },
  };
}

const once = (fn: () => void): (() => void) => {
  let done = false;
  return () => {
    if (!done) (done = true), fn();
  };
};

export function createCodemodeTool(source: CodemodeSource): AgentTool<typeof codemodeSchema, CodemodeDetails> {
  /** store()/load(): a script's writes are kept only when it succeeds. */
  const store = source.store ?? memoryStore();
  return {
    name: CODEMODE,
    label: CODEMODE,
    description: CODEMODE_DESCRIPTION,
    parameters: codemodeSchema,
    async execute(toolCallId, params: Static<typeof codemodeSchema>, signal, onUpdate, nested?: NestedToolRunner) {
      const startedAt = Date.now();
      const calls: CallRow[] = [];
      let omitted = 0;
      const inflight = new Set<Promise<unknown>>();
      const slots = slotsOf(MAX_SCRIPT_CALLS);
      const details = (): CodemodeDetails => ({ calls: calls.map((c) => ({ ...c })), ...(omitted > 0 ? { omittedCalls: omitted } : {}) });
      // The card's updates, at most one per PUBLISH_MS (the last one trailing): each carries the record whole.
      let lastPublished = 0;
      let trailing: NodeJS.Timeout | undefined;
      const publishNow = (): void => {
        trailing = undefined;
        lastPublished = Date.now();
        onUpdate({ content: [], details: details() });
      };
      const publish = (): void => {
        if (trailing) return;
        const wait = lastPublished + PUBLISH_MS - Date.now();
        if (wait <= 0) publishNow();
        else trailing = setTimeout(publishNow, wait);
      };
      let parsed: ReturnType<typeof parseSource>;
      try {
        parsed = parseSource(params.code);
      } catch (error) {
        return { content: resultContent({ ok: false, output: [], error: { kind: "script", message: errorText(error) }, calls, wallMs: Date.now() - startedAt }), details: { calls }, isError: true };
      }
      publish();
      // Servers still connecting are waited for, but an abort does not wait for them.
      await new Promise<void>((resolve) => {
        const done = (): void => (signal.removeEventListener("abort", done), resolve());
        signal.addEventListener("abort", done, { once: true });
        source.settled(scriptReach(parsed.code)).then(done, done);
      });
      const callable = source.callable().filter((c) => c.tool.name !== CODEMODE);
      const result = await runScript({
        code: parsed.code,
        ...(parsed.options.timeoutMs !== undefined ? { timeoutMs: parsed.options.timeoutMs } : {}),
        toolIds: callable.map((c) => scriptIdentifier(c.tool.name)),
        allTools: callable.map(listEntry),
        store: store.read(),
        signal,
        async answer(kind, name, args, callSignal) {
          if (kind === "searchTools" || kind === "describeTool" || kind === "describeNamespace") return discover(kind, args, callable);
          if (kind !== "tool") throw new Error(`Unknown request ${String(kind)}`);
          const found = findTool(callable, name);
          if (!found) throw new Error(`No tool ${name} is callable from scripts`);
          if (!nested) throw new Error("Tool calls need the agent loop");
          const row: CallRow = { id: `${toolCallId}/?`, name: found.tool.name, args: preview(args, 200), status: "running" };
          // The card's record of the calls is capped (Pi's 256): each update carries it whole.
          if (calls.length < MAX_RECORDED_CALLS) calls.push(row);
          else omitted++;
          publish();
          const callSignals = AbortSignal.any([signal, callSignal]);
          const release = await slots.take(callSignals);
          const callStarted = Date.now();
          const running = nested.runTool(found.tool, args, callSignals).finally(release);
          inflight.add(running);
          const outcome = await running.finally(() => inflight.delete(running));
          row.id = outcome.toolCallId;
          row.durationMs = Date.now() - callStarted;
          row.status = outcome.isError ? (callSignal.aborted || signal.aborted ? "cancelled" : "error") : "ok";
          if (outcome.isError) row.error = textOf(outcome.result).slice(0, 500);
          publish();
          // An MCP tool resolves to its whole CallToolResult, isError too; a failed call of another tool rejects.
          if (outcome.result.structured !== undefined) return outcome.result.structured;
          if (outcome.isError) throw new Error(textOf(outcome.result) || `Tool "${found.tool.name}" failed`);
          return textOf(outcome.result);
        },
      });
      // Calls still running were cancelled when the script ended: their ends go out before the script's.
      if (inflight.size > 0) {
        let timer: NodeJS.Timeout | undefined;
        await Promise.race([Promise.allSettled([...inflight]), new Promise((resolve) => (timer = setTimeout(resolve, CANCEL_WAIT_MS)))]);
        clearTimeout(timer);
      }
      clearTimeout(trailing);
      for (const call of calls) if (call.status === "running") call.status = "cancelled";
      if (result.ok && (result.storeWrites.delete.length > 0 || Object.keys(result.storeWrites.set).length > 0)) store.write(result.storeWrites);
      const content = resultContent({
        ok: result.ok,
        output: result.output,
        ...(result.ok ? (result.value === undefined ? {} : { value: result.value }) : { error: result.error }),
        calls,
        wallMs: Date.now() - startedAt,
        ...(parsed.options.maxOutputTokens !== undefined ? { maxOutputTokens: parsed.options.maxOutputTokens } : {}),
      });
      return { content, details: details(), ...(result.ok ? {} : { isError: true }) };
    },
  };
}
