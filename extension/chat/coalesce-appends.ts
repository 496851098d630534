import type { ToWebview } from "../../shared/webview-protocol";

type Append = Extract<ToWebview, { type: "append" }>;

/**
 * Streamed text for the webview, in fewer messages: the first delta goes out at once (first paint
 * is not delayed), the ones that follow within `windowMs` are joined into one `append`. Any other
 * message first sends what is held, so the webview sees everything in order.
 */
export function coalesceAppends(sink: (message: ToWebview) => void, windowMs = 8): { post(message: ToWebview): void; flush(): void; dispose(): void } {
  let held: Append | undefined;
  let timer: ReturnType<typeof setTimeout> | undefined;
  const flush = () => {
    if (held) sink(held);
    held = undefined;
  };
  const closeWindow = () => {
    timer = undefined;
    flush();
  };
  return {
    post(message) {
      if (message.type !== "append") {
        flush();
        sink(message);
        return;
      }
      if (held && held.key === message.key && held.block === message.block && held.blockType === message.blockType) {
        held = { ...held, text: held.text + message.text };
        return;
      }
      flush();
      if (timer) {
        held = message;
        return;
      }
      sink(message);
      timer = setTimeout(closeWindow, windowMs);
    },
    /** Sends what is held now (before a message that bypasses this, such as a full reset). */
    flush,
    dispose() {
      if (timer) clearTimeout(timer);
      timer = undefined;
      flush();
    },
  };
}
