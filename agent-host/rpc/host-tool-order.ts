type Frame = { type?: unknown; toolCallId?: unknown };

/**
 * oh-my-pi writes a host tool's `host_tool_call` before that tool's `tool_execution_start`, and
 * clients written for it may count on that; our agent announces the tool first. So a
 * `tool_execution_start` waits: the host_tool_call for its toolCallId goes out ahead of it, and
 * any other frame, or the end of the tick, lets it go first. Other frames keep their order.
 */
export function hostToolCallsFirst(send: (frame: object) => void): (frame: object) => void {
  const held = new Map<string, object>();
  let scheduled = false;
  const flush = () => {
    if (held.size === 0) return;
    for (const frame of held.values()) send(frame);
    held.clear();
  };
  return (frame) => {
    const { type, toolCallId } = frame as Frame;
    if (type === "tool_execution_start" && typeof toolCallId === "string") {
      held.set(toolCallId, frame);
      if (!scheduled) {
        scheduled = true;
        setImmediate(() => {
          scheduled = false;
          flush();
        });
      }
      return;
    }
    if (type === "host_tool_call" && typeof toolCallId === "string" && held.has(toolCallId)) {
      const start = held.get(toolCallId)!;
      held.delete(toolCallId);
      flush();
      send(frame);
      send(start);
      return;
    }
    flush();
    send(frame);
  };
}
