/** Child-process helpers shared by bash (the shell), grep (ripgrep) and their tests. */
import type { ChildProcess } from "node:child_process";
import { constants } from "node:fs";
import { access, stat } from "node:fs/promises";
import { delimiter, isAbsolute, join } from "node:path";

/** The first executable file called `name` on a PATH-style list (default: this process's PATH). */
export async function findExecutable(name: string, pathList = process.env.PATH ?? ""): Promise<string | undefined> {
  const exts = process.platform === "win32" ? ["", ".exe", ".cmd"] : [""];
  for (const dir of pathList.split(delimiter)) {
    if (!dir || !isAbsolute(dir)) continue;
    for (const ext of exts) {
      const candidate = join(dir, name + ext);
      try {
        await access(candidate, constants.X_OK);
        if ((await stat(candidate)).isFile()) return candidate;
      } catch {
        // not here
      }
    }
  }
  return undefined;
}

/**
 * A tool's external program (fd, rg): the one its option names; none when the option is `null`;
 * else the first of `names` found on `searchPath` (PATH syntax; default: this process's PATH),
 * looked up once, on first use.
 */
export function programLocator(configured: string | null | undefined, names: readonly string[], searchPath?: string): () => Promise<string | undefined> {
  let located: Promise<string | undefined> | undefined;
  const firstOf = async (): Promise<string | undefined> => {
    for (const name of names) {
      const found = await findExecutable(name, searchPath);
      if (found) return found;
    }
    return undefined;
  };
  return () => {
    if (configured === null) return Promise.resolve(undefined);
    if (configured) return Promise.resolve(configured);
    return (located ??= firstOf());
  };
}

/** How long output may keep trickling in after the child exited (from descendants holding the pipes). */
const AFTER_EXIT_IDLE_MS = 100;

/**
 * Resolves with the exit code once the child has exited and its pipes are drained. A background
 * descendant that keeps stdout open does not hold us forever: after the exit we wait only until
 * the pipes have been quiet for a moment. Rejects if the process could not be started.
 */
export function waitForExit(child: ChildProcess): Promise<number | null> {
  return new Promise((resolve, reject) => {
    let exited = false;
    let code: number | null = null;
    let open = (child.stdout ? 1 : 0) + (child.stderr ? 1 : 0);
    let idle: NodeJS.Timeout | undefined;
    let done = false;
    const finish = (result: number | null) => {
      if (done) return;
      done = true;
      if (idle) clearTimeout(idle);
      child.stdout?.off("data", onData);
      child.stderr?.off("data", onData);
      child.stdout?.destroy();
      child.stderr?.destroy();
      resolve(result);
    };
    const arm = () => {
      if (idle) clearTimeout(idle);
      idle = setTimeout(() => finish(code), AFTER_EXIT_IDLE_MS);
    };
    const onData = () => {
      if (exited) arm();
    };
    const onEnd = () => {
      open--;
      if (exited && open <= 0) finish(code);
    };
    child.stdout?.on("data", onData);
    child.stderr?.on("data", onData);
    child.stdout?.once("end", onEnd);
    child.stderr?.once("end", onEnd);
    child.once("error", (error) => {
      if (!done) {
        done = true;
        reject(error);
      }
    });
    child.once("exit", (exitCode) => {
      exited = true;
      code = exitCode;
      if (open <= 0) finish(code);
      else arm();
    });
    child.once("close", (exitCode) => finish(exitCode ?? code));
  });
}
