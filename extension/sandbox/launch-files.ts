/**
 * The files an agent's launch runs, for the check that a sandbox wrapping the whole agent can
 * see them (agent-sandbox.ts: /tmp and the runtime dir are the sandbox's own inside, so a file
 * there is not found: bwrap's "execvp …: No such file", node's "Cannot find module"). Each way a
 * launch names a file counts: the program (on its PATH), the interpreter of its `#!` line (`env`
 * followed on the same PATH), the arguments that name files (relative ones from the launch's
 * folder), and the modules node loads first (NODE_OPTIONS `--require`, `--import`).
 */
import * as fs from "node:fs";
import * as path from "node:path";
import { findProgram } from "../../shared/node/sandbox";
import type { AgentLaunch } from "../supervision/agent-command";

export function launchFiles(launch: Pick<AgentLaunch, "command" | "args" | "cwd" | "env">): string[] {
  const pathList = launch.env.PATH ?? "";
  const program = launch.command.includes("/") ? path.resolve(launch.cwd, launch.command) : findProgram(launch.command, pathList);
  const named = launch.args.flatMap((arg) => {
    const file = path.resolve(launch.cwd, arg);
    return arg && !arg.startsWith("-") && fs.existsSync(file) ? [file] : [];
  });
  return [...(program ? [program, ...interpreterOf(program, pathList)] : []), ...named, ...preloaded(launch.env.NODE_OPTIONS ?? "", launch.cwd)];
}

/** A script's `#!` interpreter, and with `/usr/bin/env [-S] [VAR=x] name` the program `name` found on `pathList`. */
function interpreterOf(program: string, pathList: string): string[] {
  let head: string;
  try {
    const fd = fs.openSync(program, "r");
    try {
      const bytes = Buffer.alloc(256);
      head = bytes.subarray(0, fs.readSync(fd, bytes, 0, bytes.length, 0)).toString("utf8");
    } finally {
      fs.closeSync(fd);
    }
  } catch {
    return [];
  }
  if (!head.startsWith("#!")) return [];
  const [interpreter, ...words] = head.slice(2).split("\n")[0]!.trim().split(/\s+/);
  if (!interpreter) return [];
  if (path.basename(interpreter) !== "env") return [interpreter];
  const name = words.find((word) => !word.startsWith("-") && !word.includes("="));
  const found = name ? findProgram(name, pathList) : undefined;
  return [interpreter, ...(found ? [found] : [])];
}

/** The files NODE_OPTIONS has node load before the program (`--require x`, `-r x`, `--import=x`, loaders); package names are not files. */
function preloaded(nodeOptions: string, cwd: string): string[] {
  const words = nodeOptions.split(/\s+/).filter(Boolean);
  const flags = new Set(["--require", "-r", "--import", "--loader", "--experimental-loader"]);
  return words.flatMap((word, i) => {
    const [flag, inline] = word.includes("=") ? [word.slice(0, word.indexOf("=")), word.slice(word.indexOf("=") + 1)] : [word, undefined];
    const value = flags.has(flag) ? (inline ?? words[i + 1]) : undefined;
    if (!value || !(value.startsWith("/") || value.startsWith(".") || value.startsWith("file:"))) return [];
    const file = value.startsWith("file:") ? decodeURIComponent(new URL(value).pathname) : path.resolve(cwd, value);
    return fs.existsSync(file) ? [file] : [];
  });
}
