/**
 * The Pi RPC commands of the chat answered for an ACP agent: prompts, steering and follow-ups go to
 * the turns (acp-turns.ts), Abort is session/cancel, New Session is session/new, the model and
 * the thinking level are the agent's config options; every other command is answered from what
 * the bridge knows, or refused where ACP has no equivalent (acp-queries.ts).
 */
import type { AgentMessage, CommandType } from "../../shared/protocol";
import { currentModelOf, modelsOf, thinkingOf } from "./acp-config";
import { answerQuery } from "./acp-queries";
import type { SessionChoices } from "./acp-session-choices";
import type { AcpTurns, PromptImages } from "./acp-turns";

export type Frame = Record<string, unknown> & { type: string; id?: string };

export interface CommandContext {
  turns: AcpTurns;
  choices: SessionChoices;
  sessionId(): string | undefined;
  name(): string;
  transcript: readonly AgentMessage[];
  commands(): readonly { name: string; description?: string }[];
  /** Closes the session and opens a new one (session/new). */
  newSession(): Promise<void>;
}

export async function answerCommand(type: CommandType, frame: Frame, context: CommandContext): Promise<unknown> {
  const { turns, choices } = context;
  const name = context.name();
  const message = String(frame.message ?? "");
  const images = frame.images as PromptImages;
  switch (type) {
    case "prompt":
    case "follow_up":
    case "steer":
      // ACP takes no message mid-turn: steering and follow-ups wait for the turn's end, in our queue.
      return turns.send(message, images, type === "steer" || (type === "prompt" && frame.streamingBehavior !== "followUp"));
    case "abort":
      await turns.abort();
      return undefined;
    case "abort_and_prompt":
      await turns.abort();
      turns.prompt(message, images);
      return undefined;
    case "new_session":
      await turns.abort();
      await context.newSession();
      return { cancelled: false };
    case "clear_queue":
      return turns.clearQueue();
    case "set_model":
      return choices.setModel(String(frame.modelId ?? ""));
    case "set_thinking_level": {
      // The agent's thought_level option where it maps onto our levels; else there is nothing to set.
      const level = String(frame.level ?? "");
      const thinking = thinkingOf(choices.configOptions);
      if (thinking && level !== thinking.current) await choices.setSelect("thought_level", level);
      return undefined;
    }
    case "cycle_model": {
      const models = modelsOf(choices.configOptions, name);
      if (models.length < 2) return null;
      const at = models.findIndex((m) => m.id === currentModelOf(choices.configOptions, name)?.id);
      return { model: await choices.setModel(models[(at + 1) % models.length]!.id), thinkingLevel: thinkingOf(choices.configOptions)?.current ?? "off", isScoped: false };
    }
    default:
      return answerQuery(type, {
        sessionId: context.sessionId() ?? "", name, streaming: turns.running, transcript: context.transcript, commands: context.commands(),
        models: modelsOf(choices.configOptions, name), model: currentModelOf(choices.configOptions, name), thinking: thinkingOf(choices.configOptions),
      });
  }
}
