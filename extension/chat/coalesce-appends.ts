import { coalesceInWindows, type WindowCoalescer } from "../../shared/coalesce-in-windows";
import type { ToWebview } from "../../shared/webview-protocol";

type Append = Extract<ToWebview, { type: "append" }>;

/**
 * Streamed text for the webview, in fewer messages: at most one `append` per `windowMs` while
 * text streams (shared/coalesce-in-windows.ts: the first after a quiet window at once, any other
 * message after what is held).
 *
 * Each post costs the extension host a message to the workbench and its reply (in code-server,
 * compressed on the socket), the workbench a hop to the webview, and the webview a render of the
 * reply's open tail (markdown, then the browser's style, layout and paint). 50 ms (20 updates a
 * second, the throttle the AI SDK's chat hooks suggest): with eight chats streaming, two on screen,
 * the renderer's CPU fell from 8.9–9.2 s (a frame's 16 ms) to 5.9 s and the worst delta-to-screen
 * latency from 1.4 s to 226 ms, the renderer no longer falling behind (docs/performance.md).
 */
export function coalesceAppends(sink: (message: ToWebview) => void, windowMs = 50): WindowCoalescer<ToWebview> {
  return coalesceInWindows<ToWebview>(sink, {
    joinable: (message) => message.type === "append",
    join: (held, next) => {
      const a = held as Append;
      const b = next as Append;
      return a.key === b.key && a.block === b.block && a.blockType === b.blockType ? { ...a, text: a.text + b.text } : undefined;
    },
    windowMs: () => windowMs,
  });
}
