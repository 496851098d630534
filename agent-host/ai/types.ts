/**
 * The LLM layer's types. Messages, content blocks, usage and models are the protocol's (declared
 * once in shared/protocol); what only the agent host needs is declared here.
 */
import type { TSchema } from "@sinclair/typebox";
import type {
  AssistantMessage,
  ImageContent,
  Model as ProtocolModel,
  StopReason,
  TextContent,
  ThinkingContent,
  ThinkingLevel,
  ToolCall,
  ToolResultMessage,
  Usage,
  UserMessage,
} from "../../shared/protocol";

export type {
  AssistantMessage,
  ImageContent,
  StopReason,
  TextContent,
  ThinkingContent,
  ThinkingLevel,
  ToolCall,
  ToolResultMessage,
  Usage,
  UserMessage,
};

export type Api = "openai-completions" | "openai-responses" | "anthropic-messages" | "google-generative-ai" | "faux";
export const knownApis: readonly Api[] = ["openai-completions", "openai-responses", "anthropic-messages", "google-generative-ai", "faux"];

/** Switches for OpenAI-compatible servers that differ from OpenAI (pi's `compat` in models.json). */
export interface OpenAICompletionsCompat {
  supportsStore?: boolean;
  supportsDeveloperRole?: boolean;
  supportsReasoningEffort?: boolean;
  supportsUsageInStreaming?: boolean;
  maxTokensField?: "max_completion_tokens" | "max_tokens";
  requiresToolResultName?: boolean;
  requiresAssistantAfterToolResult?: boolean;
  requiresThinkingAsText?: boolean;
  thinkingFormat?: "openai" | "zai" | "qwen" | "openrouter";
  supportsStrictMode?: boolean;
}

/** A model as the host uses it: the protocol's Model with a known API and typed compat. */
export interface Model extends Omit<ProtocolModel, "api" | "compat"> {
  api: Api;
  compat?: OpenAICompletionsCompat & Record<string, unknown>;
}

/** What the LLM understands: the agent's richer messages are converted to these first. */
export type Message = UserMessage | AssistantMessage | ToolResultMessage;

export interface Tool {
  name: string;
  description: string;
  parameters: TSchema;
}

export interface Context {
  systemPrompt?: string;
  messages: Message[];
  tools?: Tool[];
}

export interface StreamOptions {
  signal?: AbortSignal;
  apiKey?: string;
  /** Unified thinking level, mapped to each provider's knobs (off … xhigh/max). */
  reasoning?: ThinkingLevel;
  maxTokens?: number;
  temperature?: number;
  headers?: Record<string, string>;
  /** For providers that cache or route per session. */
  sessionId?: string;
  /** Sees the request body just before it is sent (for logs and tests). */
  onPayload?: (payload: unknown) => void;
  /** How long a request may wait for its headers or more of its body, in ms (0: no limit; pi's httpIdleTimeoutMs). */
  httpIdleTimeoutMs?: number;
  /** Proxy for this request (settings.json's httpProxy), as HTTP_PROXY and HTTPS_PROXY over the environment's. */
  httpProxy?: string;
}

/**
 * What a provider streams. Every event carries `partial`: the one message being built (the same
 * object throughout, so carrying it costs nothing); the RPC layer sends only the delta.
 */
export type AssistantMessageEvent =
  | { type: "start"; partial: AssistantMessage }
  | { type: "text_start"; contentIndex: number; partial: AssistantMessage }
  | { type: "text_delta"; contentIndex: number; delta: string; partial: AssistantMessage }
  | { type: "text_end"; contentIndex: number; content: string; partial: AssistantMessage }
  | { type: "thinking_start"; contentIndex: number; partial: AssistantMessage }
  | { type: "thinking_delta"; contentIndex: number; delta: string; partial: AssistantMessage }
  | { type: "thinking_end"; contentIndex: number; content: string; partial: AssistantMessage }
  | { type: "toolcall_start"; contentIndex: number; id: string; toolName: string; partial: AssistantMessage }
  | { type: "toolcall_delta"; contentIndex: number; delta: string; partial: AssistantMessage }
  | { type: "toolcall_end"; contentIndex: number; toolCall: ToolCall; partial: AssistantMessage }
  | { type: "done"; reason: "stop" | "length" | "toolUse"; message: AssistantMessage }
  | { type: "error"; reason: "aborted" | "error"; error: AssistantMessage };

/** Errors worth retrying (rate limits, overload, 5xx, network), as classified by the provider. */
export interface ErrorClassification {
  transient: boolean;
  status?: number;
  /** Server-suggested wait (Retry-After), in ms. */
  retryAfterMs?: number;
}
