import type { ChatItem } from "../../shared/chat-items";
import { AssistantView } from "./assistant";
import type { ItemContext, ItemView } from "./common";
import { DialogView } from "./dialog";
import { SimpleView } from "./simple";
import { ToolView } from "./tool";

export type { ItemContext, ItemView } from "./common";

export function createView(item: ChatItem, ctx: ItemContext): ItemView {
  switch (item.kind) {
    case "assistant":
      return new AssistantView(item, ctx);
    case "tool":
      return new ToolView(item, ctx);
    case "dialog":
      return new DialogView(item, ctx);
    default:
      return new SimpleView(item, ctx);
  }
}

/** Whether a view can take this item as an update (same kind), or must be made again. */
export function sameKind(view: ItemView, item: ChatItem): boolean {
  return view.element.dataset.kind === item.kind;
}
