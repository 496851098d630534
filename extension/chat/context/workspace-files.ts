import * as path from "node:path";
import * as vscode from "vscode";
import { isStub } from "../../../shared/node/sandbox/stubs";
import type { MentionCandidate, PathKind } from "../../../shared/webview-protocol";
import { foldersOf, rankPaths } from "./path-rank";
import { hiddenIn, workspaceFolderPaths } from "../../host-tools/editor-workspace";
import { filesReallyIn, realFolders } from "../../host-tools/workspace-paths";

const maxFiles = 20_000;

/**
 * The workspace's files for `@` completion and `@folder/` listings: listed once with
 * `findFiles` (minus `files.exclude` and `search.exclude`, and what a folder link leads out to),
 * again after files come or go.
 * One for the window, shared by every session's chat; nothing (no listing, no watcher) until a
 * chat first asks for the files, as the `@` picker and a folder mention do.
 */
export class WorkspaceFiles implements vscode.Disposable {
  private listing: Promise<string[]> | undefined;
  private readonly subscriptions: vscode.Disposable[] = [];
  private watching = false;

  /** Whether the file watcher runs (it starts with the first listing). */
  get isWatching(): boolean {
    return this.watching;
  }

  private watch(): void {
    if (this.watching) return;
    this.watching = true;
    const watcher = vscode.workspace.createFileSystemWatcher("**/*", false, true, false);
    const forget = () => (this.listing = undefined);
    // The sandbox's mount points (an empty .envrc, …) come and go with each command: no reason to list again.
    const forgetUnlessStub = (uri: vscode.Uri) => isStub(uri.fsPath) || forget();
    this.subscriptions.push(
      watcher,
      watcher.onDidCreate(forgetUnlessStub),
      watcher.onDidDelete(forgetUnlessStub),
      vscode.workspace.onDidChangeWorkspaceFolders(forget),
      vscode.workspace.onDidChangeConfiguration((e) => {
        if (e.affectsConfiguration("files.exclude") || e.affectsConfiguration("search.exclude")) forget();
      }),
    );
  }

  /** Workspace-relative paths ("/"-separated; prefixed by the folder's name in a multi-root workspace). */
  files(): Promise<string[]> {
    this.watch();
    this.listing ??= Promise.resolve(vscode.workspace.findFiles("**/*", excludeGlob(), maxFiles)).then(
      (uris) => reallyListed(uris.filter((uri) => !isStub(uri.fsPath))).map((uri) => this.relative(uri)),
      () => [],
    );
    return this.listing;
  }

  async search(query: string, limit = 50): Promise<MentionCandidate[]> {
    const files = await this.files();
    const entries = [...foldersOf(files).map((p) => ({ kind: "folder" as const, path: p })), ...files.map((p) => ({ kind: "file" as const, path: p }))];
    return rankPaths(query, entries, limit);
  }

  /** What is under a folder (relative to it; folders end with "/"), as far as the listing goes. */
  async under(folder: string): Promise<string[]> {
    const prefix = `${folder.replace(/\/+$/, "")}/`;
    const inside = (await this.files()).filter((f) => f.startsWith(prefix)).map((f) => f.slice(prefix.length));
    return [...foldersOf(inside).map((f) => `${f}/`), ...inside];
  }

  /** The URI a mention's path names: absolute, in the named root of a multi-root workspace, or in the first that has it. */
  async resolve(mentionPath: string): Promise<vscode.Uri | undefined> {
    if (path.isAbsolute(mentionPath)) return vscode.Uri.file(mentionPath);
    const folders = vscode.workspace.workspaceFolders ?? [];
    const [first, ...rest] = mentionPath.split("/");
    const named = folders.length > 1 ? folders.find((f) => f.name === first) : undefined;
    const candidates = named ? [vscode.Uri.joinPath(named.uri, ...rest)] : folders.map((f) => vscode.Uri.joinPath(f.uri, mentionPath));
    for (const uri of candidates) {
      if (await exists(uri)) return uri;
    }
    return undefined;
  }

  /** What a mention's path names (absolute, or in a workspace folder): a file, a folder, or nothing. */
  async kind(mentionPath: string): Promise<PathKind> {
    const uri = await this.resolve(mentionPath);
    const stat = uri && (await Promise.resolve(vscode.workspace.fs.stat(uri)).catch(() => undefined));
    if (!stat) return "none";
    return stat.type & vscode.FileType.Directory ? "folder" : "file";
  }

  relative(uri: vscode.Uri): string {
    return vscode.workspace.asRelativePath(uri, (vscode.workspace.workspaceFolders?.length ?? 0) > 1);
  }

  dispose(): void {
    this.watching = false;
    this.listing = undefined;
    for (const sub of this.subscriptions.splice(0)) sub.dispose();
  }
}

/**
 * The files found whose folder really is in the workspace (workspace-paths.ts filesReallyIn): the
 * search follows folder links, and a folder mention's listing goes to the agent.
 */
function reallyListed(uris: readonly vscode.Uri[]): vscode.Uri[] {
  const files = uris.filter((uri) => uri.scheme === "file");
  const kept = new Set(filesReallyIn(files.map((uri) => uri.fsPath), realFolders(workspaceFolderPaths()), hiddenIn()));
  return uris.filter((uri) => uri.scheme !== "file" || kept.has(uri.fsPath));
}

async function exists(uri: vscode.Uri): Promise<boolean> {
  try {
    await vscode.workspace.fs.stat(uri);
    return true;
  } catch {
    return false;
  }
}

/** `files.exclude` and `search.exclude` (the patterns switched on), as one glob. */
function excludeGlob(): string | undefined {
  const patterns = new Set<string>();
  for (const section of ["files", "search"]) {
    const table = vscode.workspace.getConfiguration(section).get<Record<string, unknown>>("exclude") ?? {};
    for (const [pattern, on] of Object.entries(table)) {
      if (on !== true || pattern.includes(",") || pattern.includes("{")) continue;
      patterns.add(pattern);
      patterns.add(`${pattern.replace(/\/$/, "")}/**`);
    }
  }
  return patterns.size ? `{${[...patterns].join(",")}}` : undefined;
}
