/** write: create or overwrite a whole file, creating its parent directories. */
import { dirname } from "node:path";
import { Type } from "@sinclair/typebox";
import { throwIfAborted, type AgentTool } from "../agent/tool";
import { localWriteIo, withFileMutationQueue, type WriteIo } from "./io";
import { guardedPath, openedCheck, openedWriteCheck, type GuardedOptions } from "./paths";

export const writeSchema = Type.Object({
  path: Type.String({ description: "Path to the file to write (relative or absolute)" }),
  content: Type.String({ description: "Content to write to the file" }),
});

export interface WriteToolOptions extends GuardedOptions {
  io?: WriteIo;
}

export function createWriteTool(cwd: string, options: WriteToolOptions = {}): AgentTool<typeof writeSchema, undefined> {
  const io = options.io ?? localWriteIo;
  return {
    name: "write",
    label: "write",
    description:
      "Write content to a file. Creates the file if it doesn't exist, overwrites if it does. Automatically creates parent directories.",
    parameters: writeSchema,
    async execute(callId, { path, content }, signal) {
      const absPath = guardedPath(path, cwd, options);
      options.beforeWrite?.(absPath, path, callId); // before its folders are made, as well as right before the write
      // Aborts are checked between steps, not raced: the queue stays held until the write settles.
      return withFileMutationQueue(absPath, async () => {
        throwIfAborted(signal);
        // Each folder made is made where its parent, opened, passes the guard (a link flipped after the checks leads elsewhere).
        await io.mkdir(dirname(absPath), openedCheck(options, path));
        throwIfAborted(signal);
        options.beforeWrite?.(absPath, path, callId);
        // Judged again on the file really opened: a link flipped after the checks leads elsewhere.
        await io.writeFile(absPath, content, openedWriteCheck(options, path, callId));
        throwIfAborted(signal);
        return { content: [{ type: "text", text: `Successfully wrote to ${path}` }], details: undefined };
      });
    },
  };
}
