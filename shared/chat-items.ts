import { Type, type TLiteral, type TObject, type TProperties, type TString } from "@sinclair/typebox";
import { lazySchema, lazyTable, type StaticOf } from "./protocol/lazy-schema";

/**
 * The entries of a chat's transcript, as the extension sends them to the webview (shared/webview-protocol.ts
 * `reset`, `history`, `upsert`): declared once, each type derived from its schema.
 */

type ItemSchema<K extends string, P extends TProperties> = TObject<{ key: TString; kind: TLiteral<K> } & P>;

function item<K extends string, P extends TProperties>(kind: K, props: P): ItemSchema<K, P> {
  return Type.Object({ key: Type.String(), kind: Type.Literal(kind), ...props }) as ItemSchema<K, P>;
}

export const AssistantBlock = lazySchema(() => Type.Object({
  type: Type.Union([Type.Literal("text"), Type.Literal("thinking")]),
  text: Type.String(),
}));
export type AssistantBlock = StaticOf<typeof AssistantBlock>;

/** `notRun`: refused before it ran, by the user's choice (plan mode), not a failure. */
export const ToolStatus = lazySchema(() => Type.Union([Type.Literal("running"), Type.Literal("done"), Type.Literal("error"), Type.Literal("notRun")]));
export const DialogMethod = lazySchema(() => Type.Union([Type.Literal("select"), Type.Literal("confirm"), Type.Literal("input"), Type.Literal("editor")]));
export const DialogState = lazySchema(() => Type.Union([Type.Literal("open"), Type.Literal("answered"), Type.Literal("timedOut"), Type.Literal("cancelled")]));
export type DialogState = StaticOf<typeof DialogState>;
const Tone = lazySchema(() => Type.Union([Type.Literal("info"), Type.Literal("warning"), Type.Literal("error")]));
/** What the user can do about an agent that did not start, from the chat: start it again, read its log, fix its settings. */
export const StartFailureAction = lazySchema(() => Type.Union([Type.Literal("retry"), Type.Literal("showLog"), Type.Literal("openSettings")]));
export type StartFailureAction = StaticOf<typeof StartFailureAction>;

/** One entry of the transcript. `key` is stable; an upsert with the same key replaces it. */
export const chatItemSchemas = lazyTable({
  user: () => item("user", { text: Type.String(), images: Type.Optional(Type.Integer({ minimum: 0 })) }),
  assistant: () =>
    item("assistant", {
      blocks: Type.Array(AssistantBlock()),
      streaming: Type.Optional(Type.Boolean()),
      /** The provider's message when the request failed or was aborted. */
      error: Type.Optional(Type.String()),
      aborted: Type.Optional(Type.Boolean()),
    }),
  tool: () =>
    item("tool", {
      toolCallId: Type.String(),
      name: Type.String(),
      args: Type.Unknown(),
      /** Live output while running (the latest partial result), then the result's text. */
      output: Type.String(),
      status: ToolStatus(),
      durationMs: Type.Optional(Type.Number()),
      images: Type.Optional(Type.Integer({ minimum: 0 })),
      /** Why a `notRun` call did not run, in a few words ("plan mode"). */
      notRun: Type.Optional(Type.String()),
      /** While the model still streams the call: characters of its arguments so far (`args` then holds only their short values). */
      argumentChars: Type.Optional(Type.Integer({ minimum: 0 })),
      /** A call made by another call (a codemode script's `tools.*`): the key of that call's card, shown under it. */
      parent: Type.Optional(Type.String()),
    }),
  bash: () =>
    item("bash", {
      command: Type.String(),
      output: Type.String(),
      running: Type.Optional(Type.Boolean()),
      exitCode: Type.Optional(Type.Union([Type.Integer(), Type.Null()])),
      cancelled: Type.Optional(Type.Boolean()),
      truncated: Type.Optional(Type.Boolean()),
      excluded: Type.Optional(Type.Boolean()),
    }),
  compaction: () => item("compaction", { summary: Type.String(), tokensBefore: Type.Number() }),
  /** Progress of retries and compaction: `active` while it lasts. */
  banner: () => item("banner", { tone: Tone(), text: Type.String(), active: Type.Optional(Type.Boolean()) }),
  notice: () => item("notice", { text: Type.String(), title: Type.Optional(Type.String()) }),
  /** `actions`: the buttons of a failed start (Retry, Show Log, Open Settings). */
  error: () => item("error", { text: Type.String(), actions: Type.Optional(Type.Array(StartFailureAction())) }),
  dialog: () =>
    item("dialog", {
      id: Type.String(),
      method: DialogMethod(),
      title: Type.String(),
      message: Type.Optional(Type.String()),
      options: Type.Optional(Type.Array(Type.String())),
      placeholder: Type.Optional(Type.String()),
      prefill: Type.Optional(Type.String()),
      /** Epoch ms when a dialog with a timeout expires (for the countdown). */
      deadline: Type.Optional(Type.Number()),
      state: DialogState(),
      /** The answer as shown, once answered. */
      answer: Type.Optional(Type.String()),
      via: Type.Optional(Type.Union([Type.Literal("inline"), Type.Literal("native")])),
      /** The native prompt was dismissed without an answer; the card still takes one. */
      nativeDismissed: Type.Optional(Type.Boolean()),
    }),
});
export const ChatItem = lazySchema(() => Type.Union(Object.values(chatItemSchemas)));
export type ChatItem = StaticOf<typeof ChatItem>;
export type ChatItemKind = ChatItem["kind"];
export type ChatItemOf<K extends ChatItemKind> = Extract<ChatItem, { kind: K }>;
