import { Type, type Static, type TObject, type TProperties, type TLiteral, type TString } from "@sinclair/typebox";
import { lazySchema, lazyTable, type StaticOf } from "./lazy-schema";

type UiRequestSchema<K extends string, P extends TProperties> = TObject<
  { type: TLiteral<"extension_ui_request">; id: TString; method: TLiteral<K> } & P
>;

function uiRequest<K extends string, P extends TProperties>(method: K, props: P): UiRequestSchema<K, P> {
  return Type.Object({
    type: Type.Literal("extension_ui_request"),
    id: Type.String(),
    method: Type.Literal(method),
    ...props,
  }) as UiRequestSchema<K, P>;
}

const Timeout = lazySchema(() => Type.Optional(Type.Number({ minimum: 0, description: "ms; the agent resolves the default itself and sends nothing" })));

/** Dialogs wait for an extension_ui_response with the same id. */
const dialogRequests = {
  select: () =>
    uiRequest("select", {
      title: Type.String(),
      options: Type.Array(Type.String()),
      timeout: Timeout(),
      /** Ours (Pi sends none): the tool call a permission question is about, so that a client shows it beside that call. */
      toolCallId: Type.Optional(Type.String({ maxLength: 1024 })),
    }),
  confirm: () => uiRequest("confirm", { title: Type.String(), message: Type.String(), timeout: Timeout() }),
  input: () => uiRequest("input", { title: Type.String(), placeholder: Type.Optional(Type.String()), timeout: Timeout() }),
  editor: () => uiRequest("editor", { title: Type.String(), prefill: Type.Optional(Type.String()) }),
};
export const dialogRequestSchemas = lazyTable(dialogRequests);

/** Fire-and-forget requests: no answer is expected. */
const uiNotices = {
  notify: () =>
    uiRequest("notify", {
      message: Type.String(),
      notifyType: Type.Optional(Type.Union([Type.Literal("info"), Type.Literal("warning"), Type.Literal("error")])),
    }),
  setStatus: () => uiRequest("setStatus", { statusKey: Type.String(), statusText: Type.Optional(Type.String()) }),
  setWidget: () =>
    uiRequest("setWidget", {
      widgetKey: Type.String(),
      widgetLines: Type.Optional(Type.Array(Type.String())),
      widgetPlacement: Type.Optional(Type.Union([Type.Literal("aboveEditor"), Type.Literal("belowEditor")])),
    }),
  setTitle: () => uiRequest("setTitle", { title: Type.String() }),
  set_editor_text: () => uiRequest("set_editor_text", { text: Type.String() }),
};
export const uiNoticeSchemas = lazyTable(uiNotices);

/** oh-my-pi: the agent withdrew dialog `targetId` (its abort signal fired). */
export const UiCancelRequest = lazySchema(() => uiRequest("cancel", { targetId: Type.String() }));
export type UiCancelRequest = StaticOf<typeof UiCancelRequest>;

export const uiRequestSchemas = lazyTable({ ...dialogRequests, ...uiNotices, cancel: UiCancelRequest });
export type UiMethod = keyof typeof uiRequestSchemas;
export type DialogMethod = keyof typeof dialogRequestSchemas;
export type UiRequestOf<K extends UiMethod> = Static<(typeof uiRequestSchemas)[K]>;
export type ExtensionUiRequest = { [K in UiMethod]: UiRequestOf<K> }[UiMethod];
export type DialogRequest = { [K in DialogMethod]: UiRequestOf<K> }[DialogMethod];
export type UiNotice = Exclude<ExtensionUiRequest, DialogRequest | UiCancelRequest>;

const responseBase = () => ({ type: Type.Literal("extension_ui_response"), id: Type.String() });
export const ExtensionUiResponse = lazySchema(() => Type.Union([
  Type.Object({ ...responseBase(), value: Type.String() }),
  Type.Object({ ...responseBase(), confirmed: Type.Boolean() }),
  Type.Object({ ...responseBase(), cancelled: Type.Literal(true) }),
]));
export type ExtensionUiResponse = StaticOf<typeof ExtensionUiResponse>;
/** The answer to a dialog, without the envelope. */
export type DialogAnswer = { value: string } | { confirmed: boolean } | { cancelled: true };

/**
 * Our host's `notify` when an extension calls ctx.ui.custom(), a view only Pi's terminal UI can
 * show (Pi sends nothing and resolves undefined); clients recognise it by this text and offer
 * to open the session in the terminal.
 */
export const terminalOnlyNotice = "An extension wanted to show a view that only Pi's terminal UI can display (ctx.ui.custom).";

