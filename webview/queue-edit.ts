import type { QueueState } from "../shared/webview-protocol";

/** Which list a queued message is in: steering (after the current tool calls) or follow-up. */
export type QueueKind = keyof QueueState;

function copy(queue: QueueState): QueueState {
  return { steering: [...queue.steering], followUp: [...queue.followUp] };
}

/** The queue without one message. */
export function withoutQueued(queue: QueueState, kind: QueueKind, index: number): QueueState {
  const next = copy(queue);
  next[kind].splice(index, 1);
  return next;
}

/**
 * The queue with one message moved up (-1) or down (+1) within its list, and its new index;
 * undefined when it is already at that end.
 */
export function moveQueued(queue: QueueState, kind: QueueKind, index: number, delta: -1 | 1): { queue: QueueState; index: number } | undefined {
  const to = index + delta;
  if (index < 0 || index >= queue[kind].length || to < 0 || to >= queue[kind].length) return undefined;
  const next = copy(queue);
  const [message] = next[kind].splice(index, 1);
  next[kind].splice(to, 0, message);
  return { queue: next, index: to };
}

/** "Send now": the message becomes the first steering message, the rest stay queued in order. */
export function sendQueuedNow(queue: QueueState, kind: QueueKind, index: number): QueueState {
  const message = queue[kind][index];
  if (message === undefined) return copy(queue);
  const next = withoutQueued(queue, kind, index);
  next.steering.unshift(message);
  return next;
}
