import type { DialogAnswer, DialogRequest } from "../../shared/protocol";
import { fitsQuickPick } from "../ui/whole-question";

/** A notification's buttons share one row of ~450 px and are cut beyond it: only short labels, few. */
const buttonMax = 14;
const rowMax = 30;

/**
 * Buttons for a dialog in a notification: a select's short options, Yes/No, and "Answer…" for
 * everything else (the whole question in a quick pick). Only a question short enough to be read
 * whole in the notification gets answer buttons, and only buttons whose label shows whole.
 */
export function dialogActions(request: DialogRequest): string[] {
  if (!fitsQuickPick(request)) return ["Answer…"];
  if (request.method === "confirm") return ["Yes", "No"];
  if (request.method !== "select") return ["Answer…"];
  const buttons: string[] = [];
  let width = 0;
  for (const option of request.options) {
    if (option.length > buttonMax || width + option.length > rowMax || buttons.includes(option)) continue;
    buttons.push(option);
    width += option.length;
  }
  return buttons.length === request.options.length ? buttons : [...buttons, "Answer…"];
}

export function answerForAction(request: DialogRequest, action: string): DialogAnswer | "ask" {
  if (action === "Answer…") return "ask";
  if (request.method === "confirm") return { confirmed: action === "Yes" };
  if (request.method === "select" && request.options.includes(action)) return { value: action };
  return "ask";
}
