import { userText } from "../../session/host-session/message-text";
import type { HostRuntime } from "../runtime";
import type { Handlers } from "./types";

function refuseExtensionCommand(runtime: HostRuntime, text: string): void {
  if (!runtime.extensions?.isCommand(text)) return;
  const name = text.trim().split(/\s/, 1)[0];
  throw new Error(`Extension command "${name}" cannot be queued. Use prompt() or execute the command when not streaming.`);
}

/** prompt, steer, follow_up, abort and the queues. */
export const promptingHandlers: Pick<Handlers, "prompt" | "steer" | "follow_up" | "abort" | "abort_and_prompt" | "clear_queue" | "set_steering_mode" | "set_follow_up_mode" | "set_interrupt_mode"> = {
  // Pi 1.5 answers these with a disposition; Pi 0.87 clients ignore the data.
  prompt: async (command, { runtime }) => {
    await runtime.beforePrompt();
    // An extension's `/command` runs at once (even while streaming); the response follows its handler.
    const extensions = runtime.extensions;
    if (extensions && (await extensions.runCommand(command.message))) return { disposition: "handled" };
    let { message, images } = command;
    if (extensions) {
      const verdict = await extensions.input(message, images, command.streamingBehavior);
      if (verdict.action === "handled") return { disposition: "handled" };
      if (verdict.action === "transform") ({ text: message, images } = verdict);
    }
    return { disposition: runtime.session.prompt(message, images, command.streamingBehavior) };
  },
  steer: (command, { runtime }) => {
    refuseExtensionCommand(runtime, command.message);
    runtime.session.steer(command.message, command.images);
    return { disposition: "queued" };
  },
  follow_up: (command, { runtime }) => {
    refuseExtensionCommand(runtime, command.message);
    runtime.session.followUp(command.message, command.images);
    return { disposition: "queued" };
  },
  abort: async (_command, { runtime }) => {
    await runtime.session.abort();
    return undefined;
  },
  abort_and_prompt: async (command, { runtime }) => {
    await runtime.session.abort();
    await runtime.beforePrompt();
    runtime.session.prompt(command.message, command.images);
    return undefined;
  },
  clear_queue: (_command, { runtime }) => {
    const removed = runtime.session.agent.clearQueues();
    return { steering: removed.steering.map(userText), followUp: removed.followUp.map(userText) };
  },
  set_steering_mode: (command, { runtime }) => {
    runtime.session.agent.steeringMode = command.mode;
    return undefined;
  },
  set_follow_up_mode: (command, { runtime }) => {
    runtime.session.agent.followUpMode = command.mode;
    return undefined;
  },
  set_interrupt_mode: (command, { runtime }) => {
    runtime.session.agent.interruptMode = command.mode;
    return undefined;
  },
};
