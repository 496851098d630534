import type { ToWebview } from "../../shared/webview-protocol";
import type { AgentSupervisor } from "../supervision/agent-supervisor";
import { modeNamed, type BuiltinCall } from "./builtin-commands";
import { modelChoices } from "./header-pickers";
import type { ChatSessionActions } from "./session-actions";
import { errorText } from "../../shared/error-text";

export interface BuiltinServices {
  supervisor: AgentSupervisor;
  actions: ChatSessionActions | undefined;
  post(message: ToWebview): void;
  /** A line in the transcript for what the command could not do. */
  notice(text: string): void;
}

/** Runs a built-in slash command for this chat's session: nothing of it reaches the model. */
export async function runBuiltin(call: BuiltinCall, services: BuiltinServices): Promise<void> {
  const { actions, supervisor, post } = services;
  switch (call.name) {
    case "new":
      return void (await actions?.run("newSession"));
    case "resume":
      return void (await actions?.run("resumeSession"));
    case "fork":
      return void (await actions?.run("forkFromMessage"));
    case "export":
      return void (await actions?.run("exportHtml"));
    case "rewind":
      return void (await actions?.rewind());
    case "compact": {
      const client = await supervisor.ensureStarted();
      // A failure the agent reports in its compaction_end too is shown from there (chat-events.ts), once.
      await client.request("compact", call.argument ? { customInstructions: call.argument } : {}).catch((error: unknown) => {
        if (!/nothing to compact|compaction failed|compaction cancelled/i.test(errorText(error))) throw error;
      });
      return;
    }
    case "thinking":
      return post({ type: "openPicker", picker: "thinking" });
    case "mode": {
      if (!call.argument) return post({ type: "openPicker", picker: "mode" });
      const mode = modeNamed(call.argument);
      if (!mode) return services.notice(`No permission mode is called "${call.argument}": ask, edits, plan or auto.`);
      if (supervisor.capabilities?.permissionModes !== true) return services.notice("This agent has no permission modes (the bundled agent has them).");
      return void (await actions?.setPermissionMode(mode));
    }
    case "model": {
      if (!call.argument) return post({ type: "openPicker", picker: "model" });
      const client = await supervisor.ensureStarted();
      const wanted = call.argument.toLowerCase();
      const { models } = await modelChoices(client);
      const exact = models.filter((m) => m.id.toLowerCase() === wanted || `${m.provider}/${m.id}`.toLowerCase() === wanted);
      const found = exact.length ? exact : models.filter((m) => `${m.provider}/${m.id} ${m.name ?? ""}`.toLowerCase().includes(wanted));
      if (found.length !== 1) {
        services.notice(found.length === 0 ? `No model matches "${call.argument}".` : `${found.length} models match "${call.argument}": choose one.`);
        return post({ type: "openPicker", picker: "model" });
      }
      await client.request("set_model", { provider: found[0].provider, modelId: found[0].id });
      await supervisor.agent.refresh(client);
      return;
    }
  }
}
