/**
 * The read, write and edit tools' file I/O served by the ACP client (fs/read_text_file,
 * fs/write_text_file) when its capabilities offer it: the client sees every write (and can show
 * or review it) and serves its unsaved buffers to reads. What ACP has no method for stays local:
 * whether a path exists, making parent folders, the edit tool's access check, images (binary).
 * The tools' path guards (--workspace-only, protected paths) run before any of it.
 */
import { constants } from "node:fs";
import { access, mkdir, readFile } from "node:fs/promises";
import type { AgentContext, FileSystemCapabilities } from "./sdk";
import { pathExists, type EditIo, type ReadIo, type WriteIo } from "../tools/io";

const BINARY = /\.(png|jpe?g|gif|webp|bmp|ico|pdf)$/i;

export interface ClientToolIo {
  read?: ReadIo;
  write?: WriteIo;
  edit?: EditIo;
}

export function clientToolIo(client: () => AgentContext, sessionId: () => string, fs: FileSystemCapabilities | undefined): ClientToolIo {
  const readText = async (path: string): Promise<Buffer> => {
    if (BINARY.test(path)) return readFile(path);
    const { content } = await client().request("fs/read_text_file", { sessionId: sessionId(), path });
    return Buffer.from(content, "utf8");
  };
  const writeText = async (path: string, content: string): Promise<void> => {
    await client().request("fs/write_text_file", { sessionId: sessionId(), path, content });
  };
  const io: ClientToolIo = {};
  if (fs?.readTextFile) io.read = { exists: pathExists, readFile: readText };
  if (fs?.writeTextFile) io.write = { mkdir: async (dir) => void (await mkdir(dir, { recursive: true })), writeFile: writeText };
  if (fs?.readTextFile && fs.writeTextFile) io.edit = { access: (p) => access(p, constants.R_OK | constants.W_OK), readFile: readText, writeFile: writeText };
  return io;
}
