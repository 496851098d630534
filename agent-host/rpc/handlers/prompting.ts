import { userText } from "../../session/message-text";
import type { Handlers } from "./types";

/** prompt, steer, follow_up, abort and the queues. */
export const promptingHandlers: Pick<Handlers, "prompt" | "steer" | "follow_up" | "abort" | "abort_and_prompt" | "clear_queue" | "set_steering_mode" | "set_follow_up_mode" | "set_interrupt_mode"> = {
  prompt: (command, { runtime }) => {
    runtime.session.prompt(command.message, command.images, command.streamingBehavior);
    return undefined;
  },
  steer: (command, { runtime }) => {
    runtime.session.steer(command.message, command.images);
    return undefined;
  },
  follow_up: (command, { runtime }) => {
    runtime.session.followUp(command.message, command.images);
    return undefined;
  },
  abort: async (_command, { runtime }) => {
    await runtime.session.abort();
    return undefined;
  },
  abort_and_prompt: async (command, { runtime }) => {
    await runtime.session.abort();
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
