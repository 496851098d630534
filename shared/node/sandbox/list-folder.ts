import { lstatSync, readdirSync, readlinkSync, statSync } from "node:fs";
import { join } from "node:path";
import type { ListedFolder } from "./home-view";

/**
 * A folder as home-view.ts rebuilds it: its entries (a symlink with its target, each with its file
 * id: an entry replaced, `~/.bashrc` saved by rename, makes a home keeper's binds out of date) and its mode.
 */
export function listFolder(dir: string): ListedFolder | undefined {
  try {
    const mode = statSync(dir).mode;
    const entries = readdirSync(dir, { withFileTypes: true }).map((entry) => {
      if (entry.isSymbolicLink()) {
        let target: string | undefined;
        try {
          target = readlinkSync(join(dir, entry.name));
        } catch {
          // gone since the listing: left out
        }
        return { name: entry.name, kind: "symlink" as const, ...(target === undefined ? {} : { target }) };
      }
      return { name: entry.name, kind: entry.isDirectory() ? ("dir" as const) : entry.isFile() ? ("file" as const) : ("other" as const), id: fileId(join(dir, entry.name)) };
    });
    return { mode, entries };
  } catch {
    return undefined;
  }
}

function fileId(path: string): string {
  try {
    const stat = lstatSync(path, { bigint: true });
    return `${stat.dev}:${stat.ino}`;
  } catch {
    return "gone";
  }
}
