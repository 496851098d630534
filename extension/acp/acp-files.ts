/**
 * fs/read_text_file and fs/write_text_file served for an ACP agent: only inside the session's
 * folder (symlinks resolved), and for a sandboxed agent never under a name its sandbox keeps
 * read-only (nowhere when the sandbox is read-only); a write gets its tool card first (the checkpoint recorder and the review read it),
 * then goes through the editor's services (editor-services.ts).
 */
import type * as acp from "@agentclientprotocol/sdk" with { "resolution-mode": "import" };
import { lstatSync } from "node:fs";
import * as path from "node:path";
import { hiddenSecretOf, protectedReason } from "../../shared/node/sandbox/protected-match";
import { protectedWorkspaceNames } from "../../shared/node/sandbox/protected-paths";
import { readVerified } from "../host-tools/verified-file";
import type { WriteJudge } from "../host-tools/verified-write";
import { hiddenEnv, realFolders, resolveWorkspacePath } from "../host-tools/workspace-paths";
import { errorText } from "../../shared/error-text";

/** The editor's side of fs/*: the buffer as the user sees it, and a write through it. */
export interface AcpFileServices {
  /**
   * `verified`: for a sandboxed agent, the bytes of the file as really opened (host-tools/verified-file.ts;
   * empty for a file that is not there): the buffer is read only if it holds them or has unsaved changes,
   * else they are; the path is not opened again (a link flipped meanwhile would be followed).
   */
  readTextFile(absPath: string, verified?: Uint8Array): Promise<string>;
  /**
   * `judge`: for a sandboxed agent, why the file really opened must not be written (the path's
   * check alone is walked elsewhere by a link flipped before the write: host-tools/verified-write.ts).
   */
  writeTextFile(absPath: string, content: string, judge?: { folders: readonly string[]; why: WriteJudge }): Promise<void>;
}

export interface FileRequestOptions {
  cwd: string;
  files: AcpFileServices;
  sandboxed?: boolean;
  /** The agent's sandbox is read-only: no write at all. */
  readOnly?: boolean;
  /** The home folder whose secrets the sandbox hides ($HOME by default). */
  home?: string;
  /** Pi's agent dir where PI_CODING_AGENT_DIR puts it (its logins hidden there too; the variable by default). */
  agentDir?: string;
}

/** Shows a write's card before it; returns its end (with the error, if it failed). */
export type AnnounceWrite = (absPath: string, content: string) => (error?: string) => void;

/** `line` (1-based) and `limit` of fs/read_text_file. */
export function sliceLines(text: string, line: number | null | undefined, limit: number | null | undefined): string {
  if (!line && !limit) return text;
  const lines = text.split("\n");
  const start = Math.max(0, (line ?? 1) - 1);
  return lines.slice(start, limit ? start + limit : undefined).join("\n");
}

export class FileRequests {
  constructor(
    private readonly options: FileRequestOptions,
    private readonly agentName: () => string,
  ) {}

  async read(params: acp.ReadTextFileRequest): Promise<acp.ReadTextFileResponse> {
    const target = this.confined(params.path);
    // Home opened as the workspace: what the sandbox hides (`~/.ssh`, …) is not read for it either.
    if (!this.options.sandboxed) return { content: sliceLines(await this.options.files.readTextFile(target), params.line, params.limit) };
    const hidden = this.hidden();
    const secret = hiddenSecretOf(target, hiddenEnv(hidden));
    if (secret) throw new Error(`${params.path} was not read: ~/${secret} is hidden from ${this.agentName()} by its sandbox.`);
    // The file opened is judged, not the path (a job of the agent's flipping a link between a
    // workspace file and ~/.ssh/id_ed25519 had the key read 6-8 times in 3,000).
    let verified: Uint8Array;
    try {
      verified = await readVerified(target, realFolders([this.options.cwd]), hidden, params.path);
    } catch (error) {
      if (!missing(target)) throw new Error(`${errorText(error)} (not read for ${this.agentName()})`);
      verified = new Uint8Array();
    }
    return { content: sliceLines(await this.options.files.readTextFile(target, verified), params.line, params.limit) };
  }

  async write(params: acp.WriteTextFileRequest, announce: AnnounceWrite): Promise<acp.WriteTextFileResponse> {
    const target = this.confined(params.path);
    if (this.options.sandboxed && this.options.readOnly) throw new Error(`${params.path} was not written: the sandbox keeps the workspace read-only for ${this.agentName()} (pi.sandbox.mode), and the editor writes nothing for it either.`);
    // Judged where the write lands (a link the agent made, `g -> .git`, leads there), and by what the sandbox keeps read-only.
    const refused = this.options.sandboxed ? this.whyNotWritten(target) : undefined;
    if (refused) throw new Error(`${params.path} was not written: ${refused}`);
    const end = announce(target, params.content);
    const judge = this.options.sandboxed ? { folders: realFolders([this.options.cwd]), why: (real: string) => this.whyNotWritten(real) } : undefined;
    try {
      await this.options.files.writeTextFile(target, params.content, judge);
      end();
    } catch (error) {
      end(errorText(error));
      throw error;
    }
    return {};
  }

  /**
   * Why its sandbox keeps a path from a sandboxed agent's write: a protected name or a place kept
   * read-only (judged where it lands), or a home secret hidden there (a read-only tmpfs: a write
   * planted ~/.aws/config's credential_process, ~/.kube/config's exec).
   */
  private whyNotWritten(path: string): string | undefined {
    const secret = hiddenSecretOf(path, hiddenEnv(this.hidden()));
    if (secret) return `~/${secret} is hidden from ${this.agentName()} by its sandbox.`;
    const guarded = protectedReason(path, { table: protectedWorkspaceNames, workspaces: [this.options.cwd] });
    return guarded && `${guarded}; the sandbox keeps it read-only for ${this.agentName()}.`;
  }

  /** Whose secrets the agent's sandbox hides. */
  private hidden(): { home: string | undefined; agentDir: string | undefined } {
    return { home: this.options.home ?? process.env.HOME, agentDir: this.options.agentDir ?? process.env.PI_CODING_AGENT_DIR };
  }

  /**
   * The file a request names, if it lies in the agent's folder (symlinks resolved): the agent may be
   * sandboxed, and the editor must not read or write for it where it could not.
   */
  private confined(file: string): string {
    if (!path.isAbsolute(file)) throw new Error(`The path "${file}" is not absolute, as ACP paths are: refused like a path outside the workspace.`);
    try {
      return resolveWorkspacePath(file, [this.options.cwd]).absPath;
    } catch {
      throw new Error(`The path "${file}" is outside the workspace (${this.options.cwd}): the editor reads and writes for ${this.agentName()} only there.`);
    }
  }
}

/** Nothing at all at `path` (a file not made yet reads as empty); a dangling link is something. */
function missing(path: string): boolean {
  return lstatSync(path, { throwIfNoEntry: false }) === undefined;
}
