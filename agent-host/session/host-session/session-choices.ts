/**
 * What a client chooses for a session, one meaning for every face (rpc/ handlers, acp/): the
 * model (recorded in the session file, the thinking level clamped to what it offers) and the
 * permission mode (the model is told of the change when it matters, as a custom message).
 */
import type { PermissionMode } from "../../../shared/protocol";
import { clampThinkingLevel } from "../../ai/thinking";
import type { Model } from "../../ai/types";
import { modeChangeNote } from "../tool-gates/permission-mode";
import { deliverCustomMessage } from "./custom-message";
import type { HostSession } from "./host-session";

export function useModel(session: HostSession, model: Model): void {
  session.agent.model = model;
  session.hasModel = true;
  session.sessions.append({ type: "model_change", provider: model.provider, modelId: model.id });
  session.setThinkingLevel(clampThinkingLevel(session.agent.thinkingLevel, model));
}

/** Tells the model of a permission mode change (a custom message) when the change matters to it. */
export function notePermissionModeChange(session: HostSession, from: PermissionMode, to: PermissionMode): void {
  const note = modeChangeNote(from, to);
  // The details let a client say it to the user in the user's words (the content is the model's).
  if (note) deliverCustomMessage(session, { role: "custom", customType: "permission_mode", content: note, display: true, details: { from, to }, timestamp: Date.now() });
}
