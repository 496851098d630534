/**
 * What the gateway's VS Code models endpoint needs of the editor's models, as plain data (no
 * vscode here, so the endpoint is tested with real agents under plain Node): the model list, one
 * streamed chat request, and token counts. `vscode-lm-backend.ts` is the `vscode.lm` side.
 */

/** One part of a message, in the neutral form both sides translate to. */
export type LmPart =
  | { type: "text"; text: string }
  | { type: "image"; mimeType: string; data: Uint8Array }
  | { type: "tool_call"; id: string; name: string; input: Record<string, unknown> }
  | { type: "tool_result"; callId: string; content: ({ type: "text"; text: string } | { type: "image"; mimeType: string; data: Uint8Array })[] };

export interface LmMessage {
  /** vscode.lm has only these two roles: a system prompt is sent as the first user message. */
  role: "user" | "assistant";
  parts: LmPart[];
}

export interface LmToolDeclaration {
  name: string;
  description: string;
  inputSchema?: Record<string, unknown>;
}

export interface LmChatRequest {
  messages: LmMessage[];
  tools: LmToolDeclaration[];
  /** OpenAI's "required" (or one named function): vscode.lm's LanguageModelChatToolMode.Required. */
  toolsRequired: boolean;
}

/** What a model streams back. */
export type LmStreamPart = { type: "text"; text: string } | { type: "tool_call"; id: string; name: string; input: unknown };

export interface LmModelInfo {
  /** vscode.lm's model id: the model's id at the gateway too. */
  id: string;
  name: string;
  vendor: string;
  family: string;
  maxInputTokens: number;
  /** Whether the model takes images (VS Code says so from 1.104; unknown before: text only). */
  imageInput: boolean;
}

/** A failure the endpoint maps to an HTTP status and OpenAI's error shape. */
export class LmError extends Error {
  constructor(
    /** vscode.LanguageModelError's codes, and the endpoint's own. */
    readonly code: "NoPermissions" | "Blocked" | "NotFound" | "Cancelled" | "BadRequest" | "Unknown",
    message: string,
  ) {
    super(message);
    this.name = "LmError";
  }
}

export interface LmBackend {
  /** The models VS Code offers now. */
  models(): Promise<LmModelInfo[]>;
  /**
   * Sends the request; the iterable yields the model's parts as they come. Rejects (or throws from
   * the iterator) with an LmError; `signal` aborts the request (the agent went away).
   */
  chat(modelId: string, request: LmChatRequest, signal: AbortSignal): Promise<AsyncIterable<LmStreamPart>>;
  /** Tokens of the request's messages and of the answer's text, by the model's own count. */
  countTokens(modelId: string, texts: readonly string[], signal: AbortSignal): Promise<number>;
}
