// For the chat's unit tests: what the webview's list of entries becomes from the messages it gets.
import type { ToWebview } from "../../shared/webview-protocol";
import type { ChatItem } from "../../shared/chat-items";

/** The webview's list of entries as the messages it gets leave it (upsert after an anchor or at the end, remove, reset). */
export function webviewModel() {
  let items: ChatItem[] = [];
  let messages = 0;
  return {
    apply(message: ToWebview) {
      messages++;
      if (message.type === "reset") items = message.items.map((i) => structuredClone(i));
      else if (message.type === "history") items = [...message.items.map((i) => structuredClone(i)), ...items];
      else if (message.type === "remove") items = items.filter((i) => i.key !== message.key);
      else if (message.type === "upsert") {
        const at = items.findIndex((i) => i.key === message.item.key);
        if (at >= 0) items[at] = structuredClone(message.item);
        else {
          const anchor = message.after === undefined ? -1 : items.findIndex((i) => i.key === message.after);
          if (anchor >= 0) items.splice(anchor + 1, 0, structuredClone(message.item));
          else items.push(structuredClone(message.item));
        }
      } else if (message.type === "append") {
        const item = items.find((i) => i.key === message.key);
        if (item?.kind === "assistant") {
          while (item.blocks.length <= message.block) item.blocks.push({ type: message.blockType, text: "" });
          item.blocks[message.block]!.text += message.text;
        }
      }
    },
    get items() {
      return items;
    },
    get messages() {
      return messages;
    },
  };
}
