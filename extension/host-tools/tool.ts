/**
 * What every editor tool shares: a TypeBox schema checked before the tool runs, one error path
 * (a thrown error becomes an error result the model can read), JSON results, and cancellation
 * written once. No vscode import, so it is unit-tested.
 */
import type { Static, TSchema } from "@sinclair/typebox";
import type { default as Ajv, ErrorObject, ValidateFunction } from "ajv";
import { createAjv, validatorOptions } from "../../shared/protocol/ajv";
import type { LazySchema } from "../../shared/protocol/lazy-schema";
import type { CancellationToken } from "vscode-jsonrpc";
import type { HostToolDefinition } from "../../shared/protocol";
import type { HostToolContext, HostToolExecute, HostToolOutcome } from "../../shared/rpc/host-tool-registry";
import { errorText } from "../../shared/error-text";

export interface EditorTool {
  definition: HostToolDefinition;
  execute: HostToolExecute;
}

export interface ToolSpec<T extends TSchema> {
  name: string;
  label: string;
  description: string;
  /** Built when the tool is first offered to an agent (not at activation). */
  parameters: LazySchema<T>;
  run(args: Static<T>, context: HostToolContext): Promise<HostToolOutcome>;
}

export class CancelledError extends Error {
  constructor(what = "The operation") {
    super(`${what} was cancelled.`);
    this.name = "CancelledError";
  }
}

export function throwIfCancelled(token: CancellationToken): void {
  if (token.isCancellationRequested) throw new CancelledError();
}

/** Settles like `work`, or rejects with CancelledError as soon as the token is cancelled. */
export function raceCancellation<T>(work: Thenable<T>, token: CancellationToken): Promise<T> {
  if (token.isCancellationRequested) return Promise.reject(new CancelledError());
  return new Promise<T>((resolve, reject) => {
    const sub = token.onCancellationRequested(() => {
      sub.dispose();
      reject(new CancelledError());
    });
    work.then(
      (value) => (sub.dispose(), resolve(value)),
      (error: unknown) => (sub.dispose(), reject(error)),
    );
  });
}

/** A result for the model: the value as indented JSON text; `details` (for UIs) is the value itself. */
export function jsonResult(value: unknown, isError = false): HostToolOutcome {
  const outcome: HostToolOutcome = { content: [{ type: "text", text: JSON.stringify(value, null, 1) }], details: value };
  if (isError) outcome.isError = true;
  return outcome;
}

export function textResult(text: string, details?: unknown): HostToolOutcome {
  return details === undefined ? { content: [{ type: "text", text }] } : { content: [{ type: "text", text }], details };
}

export function errorResult(message: string): HostToolOutcome {
  return { content: [{ type: "text", text: message }], isError: true };
}

// The same validator as the protocol's frames, loaded with the first tool call (not at activation).
let ajv: Ajv | undefined;

/** AJV's errors for a model to read: where, and what is wrong (at most five). */
function describeErrors(errors: ErrorObject[] | null | undefined): string {
  const what = (e: ErrorObject): string =>
    e.keyword === "required" ? `missing ${String(e.params.missingProperty)}`
    : e.keyword === "additionalProperties" ? `unknown property ${String(e.params.additionalProperty)}`
    : (e.message ?? e.keyword);
  const lines = (errors ?? []).filter((e) => e.keyword !== "anyOf").map((e) => `${e.instancePath || "arguments"}: ${what(e)}`);
  return [...new Set(lines)].slice(0, 5).join("; ") || "invalid";
}

/** Wraps a spec as a host tool: checks the arguments, runs, turns errors into error results. */
export function defineTool<T extends TSchema>(spec: ToolSpec<T>): EditorTool {
  let validate: ValidateFunction | undefined;
  let definition: HostToolDefinition | undefined;
  return {
    get definition() {
      return (definition ??= { name: spec.name, label: spec.label, description: spec.description, parameters: spec.parameters() as unknown as Record<string, unknown> });
    },
    async execute(args, context) {
      validate ??= (ajv ??= createAjv(validatorOptions)).compile(spec.parameters());
      if (!validate(args)) return errorResult(`Invalid arguments for ${spec.name}: ${describeErrors(validate.errors)}`);
      try {
        throwIfCancelled(context.token);
        return await spec.run(args as Static<T>, context);
      } catch (error) {
        if (error instanceof CancelledError || context.token.isCancellationRequested) return errorResult(`${spec.name} was cancelled.`);
        return errorResult(errorText(error));
      }
    },
  };
}
