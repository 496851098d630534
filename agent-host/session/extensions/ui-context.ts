/**
 * ctx.ui over a UiBridge (the RPC side is rpc/extension-ui.ts). Dialogs ask the bridge and map
 * the answer to what pi's extensions get: select/input/editor → the value or undefined,
 * confirm → true/false; a timeout, an abort or a cancel gives the default. Terminal-only methods
 * degrade as pi 0.87.1 documents for RPC mode (docs/rpc-extension-ui.md, "Limitations").
 */
import { terminalOnlyNotice, type DialogAnswer, type DialogRequest, type UiNotice } from "../../../shared/protocol";
import type { DialogOptions, ExtensionUIContext, PlainTheme } from "./types";

type WithoutEnvelope<T> = T extends unknown ? Omit<T, "type" | "id"> : never;
export type DialogSpec = WithoutEnvelope<DialogRequest>;
export type NoticeSpec = WithoutEnvelope<UiNotice>;

/** How dialogs and notices reach the user. */
export interface UiBridge {
  /** Resolves with the user's answer, or undefined when the timeout passed or `signal` fired first. */
  dialog(spec: DialogSpec, signal?: AbortSignal): Promise<DialogAnswer | undefined>;
  notice(spec: NoticeSpec): void;
}

/** Styling helpers that return their (last) text argument unchanged. */
const plainTheme: PlainTheme = new Proxy({} as PlainTheme, {
  get: (_target, key) => (key === "then" ? undefined : (...args: unknown[]) => String(args.filter((a) => typeof a === "string").at(-1) ?? "")),
});

const valueOf = (answer: DialogAnswer | undefined): string | undefined => (answer && "value" in answer ? answer.value : undefined);
const timeoutOf = (opts?: DialogOptions) => (opts?.timeout !== undefined ? { timeout: opts.timeout } : {});
const noop = () => undefined;
const emitTitle = () => !/^(0|false|no)$/i.test(process.env.PI_RPC_EMIT_TITLE ?? "");

export function createUiContext(bridge: UiBridge): ExtensionUIContext {
  const setEditorText = (text: string) => bridge.notice({ method: "set_editor_text", text });
  return {
    select: async (title, options, opts) => valueOf(await bridge.dialog({ method: "select", title, options, ...timeoutOf(opts) }, opts?.signal)),
    confirm: async (title, message, opts) => {
      const answer = await bridge.dialog({ method: "confirm", title, message, ...timeoutOf(opts) }, opts?.signal);
      return answer !== undefined && "confirmed" in answer ? answer.confirmed : false;
    },
    input: async (title, placeholder, opts) =>
      valueOf(await bridge.dialog({ method: "input", title, ...(placeholder !== undefined ? { placeholder } : {}), ...timeoutOf(opts) }, opts?.signal)),
    editor: async (title, prefill) => valueOf(await bridge.dialog({ method: "editor", title, ...(prefill !== undefined ? { prefill } : {}) })),
    notify: (message, type) => bridge.notice({ method: "notify", message, ...(type ? { notifyType: type } : {}) }),
    setStatus: (key, text) => bridge.notice({ method: "setStatus", statusKey: key, ...(text !== undefined ? { statusText: text } : {}) }),
    setWidget: (key, content, options) => {
      if (typeof content === "function") return; // component factories need pi's terminal
      bridge.notice({
        method: "setWidget",
        widgetKey: key,
        ...(content !== undefined ? { widgetLines: content } : {}),
        ...(options?.placement ? { widgetPlacement: options.placement } : {}),
      });
    },
    // Pi 0.87.1 always sends setTitle; PI_RPC_EMIT_TITLE=0 turns it off (oh-my-pi's switch, opt-in there).
    setTitle: (title) => emitTitle() && bridge.notice({ method: "setTitle", title }),
    setEditorText,
    pasteToEditor: setEditorText,
    getEditorText: () => "",
    custom: async () => {
      bridge.notice({ method: "notify", message: terminalOnlyNotice, notifyType: "warning" });
      return undefined;
    },
    onTerminalInput: () => noop,
    setWorkingMessage: noop,
    setWorkingVisible: noop,
    setWorkingIndicator: noop,
    setHiddenThinkingLabel: noop,
    setFooter: noop,
    setHeader: noop,
    addAutocompleteProvider: noop,
    setEditorComponent: noop,
    getEditorComponent: () => undefined,
    theme: plainTheme,
    getAllThemes: () => [],
    getTheme: () => undefined,
    setTheme: () => ({ success: false, error: "Theme switching not supported in RPC mode" }),
    getToolsExpanded: () => false,
    setToolsExpanded: noop,
  };
}
