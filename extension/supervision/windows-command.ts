import * as fs from "node:fs";
import * as path from "node:path";

export interface SpawnCommand {
  command: string;
  args: string[];
  /** Pass `args` to the process as written (cmd.exe's own quoting is already applied). */
  verbatim?: boolean;
}

export interface WindowsLookup {
  env: NodeJS.ProcessEnv;
  exists?: (file: string) => boolean;
}

/** Windows finds `pi` as pi.cmd on the PATH; Node's spawn without a shell finds only .exe/.com. */
export function findOnWindowsPath(command: string, lookup: WindowsLookup): string | undefined {
  const exists = lookup.exists ?? ((file: string) => fs.existsSync(file));
  const env = lookup.env;
  const extensions = (env.PATHEXT ?? env.Pathext ?? ".COM;.EXE;.BAT;.CMD").split(";").filter(Boolean);
  const hasExtension = path.win32.extname(command) !== "";
  const candidates = (base: string) => (hasExtension ? [base] : extensions.map((ext) => base + ext.toLowerCase()));
  const dirs = /[\\/]/.test(command) ? [""] : (env.PATH ?? env.Path ?? "").split(";").filter(Boolean);
  for (const dir of dirs) {
    for (const file of candidates(dir ? path.win32.join(dir, command) : command)) if (exists(file)) return file;
  }
  return undefined;
}

/** Quotes one argument by the MSVCRT rules (backslashes doubled before a quote). */
export function quoteWindowsArg(arg: string): string {
  if (arg !== "" && !/[\s"]/.test(arg)) return arg;
  return `"${arg.replace(/(\\*)"/g, '$1$1\\"').replace(/(\\+)$/, "$1$1")}"`;
}

/** cmd.exe treats these as operators even inside an argument: escape each with ^. */
const cmdMeta = /([()\][%!^"`<>&|;, *?])/g;

/**
 * What to spawn for `command args` without a shell. On Windows a batch file (npm's pi.cmd shim)
 * can only run through cmd.exe, so its command line is built with both quoting layers; anything
 * else, and every other platform, spawns the program directly.
 */
export function spawnCommand(command: string, args: string[], platform: NodeJS.Platform, lookup: WindowsLookup): SpawnCommand {
  if (platform !== "win32") return { command, args };
  const found = findOnWindowsPath(command, lookup) ?? command;
  if (!/\.(cmd|bat)$/i.test(found)) return { command: found, args };
  const line = [found, ...args].map((a) => quoteWindowsArg(a).replace(cmdMeta, "^$1")).join(" ");
  return { command: lookup.env.ComSpec ?? "cmd.exe", args: ["/d", "/s", "/c", `"${line}"`], verbatim: true };
}
