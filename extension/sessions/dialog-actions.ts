import type { DialogAnswer, DialogRequest } from "../../shared/protocol";

/** Buttons for a dialog in a notification: a short select's options, Yes/No, or "Answer…". */
export function dialogActions(request: DialogRequest): string[] {
  if (request.method === "select" && request.options.length <= 3 && request.options.every((o) => o.length <= 40)) return [...request.options];
  if (request.method === "confirm") return ["Yes", "No"];
  return ["Answer…"];
}

export function answerForAction(request: DialogRequest, action: string): DialogAnswer | "ask" {
  if (request.method === "confirm") return { confirmed: action === "Yes" };
  if (request.method === "select" && request.options.includes(action)) return { value: action };
  return "ask";
}
