/**
 * VS Code's own MCP configuration (`.vscode/mcp.json`, the user's `mcp.json`: `servers` and
 * `inputs`, JSON with comments) converted to entries of Pi's `mcp.json` (docs/mcp.md of pi 1.5.2,
 * "Migrate configuration from another client"). Nothing is resolved behind the user's back: a
 * server that needs an `${input:…}` prompt, an `envFile`, the SSE transport (Pi refuses it) or a
 * variable we cannot resolve is listed with the reason it is skipped. `${env:NAME}` becomes Pi's
 * `${NAME}`, expanded by the agent from its own environment; `${workspaceFolder}` and
 * `${userHome}` are resolved here. Commands stay one executable and its arguments: nothing runs
 * through a shell. Plain: no vscode, no I/O.
 */
import type { ParseError } from "jsonc-parser";
import { errorText } from "../../shared/error-text";

export type VsCodeMcpOrigin = "user" | "workspace";

/** One server of a VS Code file, with what would be offered or why not. */
export interface OfferedMcpServer {
  name: string;
  origin: VsCodeMcpOrigin;
  /** The whole command line or URL, for the picker (each part shown as written). */
  shown: string;
  /** Pi's entry, when the server can be offered. */
  entry?: PiMcpEntry;
  /** Why it cannot be offered. */
  skipped?: string;
}

export interface PiMcpEntry {
  command?: string;
  args?: string[];
  env?: Record<string, string>;
  cwd?: string;
  url?: string;
  headers?: Record<string, string>;
}

export interface ResolveVariables {
  workspaceFolder?: string;
  userHome: string;
}

const NAME = /^[A-Za-z0-9_-]+$/;
const isRecord = (value: unknown): value is Record<string, unknown> => typeof value === "object" && value !== null && !Array.isArray(value);

/** A value with VS Code's variables turned into Pi's, or the reason it cannot be. */
function convertValue(value: string, vars: ResolveVariables): string {
  return value.replace(/\$\{([^}]*)\}/g, (whole, inner: string) => {
    if (inner.startsWith("input:")) throw new Error(`it needs ${whole}, an input VS Code prompts for; give the value through an environment variable (\${env:NAME}) instead`);
    if (inner.startsWith("env:")) {
      const name = inner.slice(4);
      if (!/^[A-Za-z_][A-Za-z0-9_]*$/.test(name)) throw new Error(`${whole} is not an environment variable name`);
      return `\${${name}}`;
    }
    if (inner === "workspaceFolder") {
      if (!vars.workspaceFolder) throw new Error(`${whole} has no workspace folder here`);
      return vars.workspaceFolder;
    }
    if (inner === "userHome") return vars.userHome;
    throw new Error(`${whole} is a variable the agent cannot resolve`);
  });
}

function strings(value: unknown, what: string): string[] {
  if (value === undefined) return [];
  if (!Array.isArray(value) || !value.every((v) => typeof v === "string")) throw new Error(`${what} is not a list of strings`);
  return value as string[];
}

function stringMap(value: unknown, what: string, vars: ResolveVariables): Record<string, string> | undefined {
  if (value === undefined) return undefined;
  if (!isRecord(value)) throw new Error(`${what} is not an object`);
  const out: Record<string, string> = {};
  for (const [key, v] of Object.entries(value)) {
    if (typeof v !== "string") throw new Error(`${what}.${key} is not a string`);
    // Pi would run a value that starts with "!" as a command: a VS Code value never means that.
    if (v.startsWith("!")) throw new Error(`${what}.${key} starts with "!", which Pi runs as a command`);
    out[key] = convertValue(v, vars);
  }
  return out;
}

/** A command line for people: each part as written, quoted when it holds blanks or quotes. */
export function shownCommandLine(parts: readonly string[]): string {
  return parts.map((part) => (part === "" || /[\s"'\\]/.test(part) ? JSON.stringify(part) : part)).join(" ");
}

function convertServer(name: string, raw: unknown, origin: VsCodeMcpOrigin, vars: ResolveVariables): OfferedMcpServer {
  const rawRecord = isRecord(raw) ? raw : {};
  const shown = typeof rawRecord.url === "string" ? rawRecord.url : shownCommandLine([typeof rawRecord.command === "string" ? rawRecord.command : "?", ...(Array.isArray(rawRecord.args) ? rawRecord.args.map(String) : [])]);
  try {
    if (!NAME.test(name)) throw new Error("Pi's server names may contain only letters, digits, _ and -");
    if (!isRecord(raw)) throw new Error("the entry is not an object");
    const type = raw.type ?? (raw.command !== undefined ? "stdio" : raw.url !== undefined ? "http" : undefined);
    if (raw.envFile !== undefined) throw new Error("it reads an envFile, which Pi does not");
    if (type === "sse") throw new Error("it uses the SSE transport, which Pi does not support");
    if (type === "stdio") {
      if (typeof raw.command !== "string" || raw.command === "") throw new Error("a stdio server needs a command");
      const env = stringMap(raw.env, "env", vars);
      const entry: PiMcpEntry = {
        command: convertValue(raw.command, vars),
        args: strings(raw.args, "args").map((a) => convertValue(a, vars)),
        ...(env ? { env } : {}),
        ...(typeof raw.cwd === "string" ? { cwd: convertValue(raw.cwd, vars) } : {}),
      };
      if (entry.cwd?.includes("${") || entry.command!.includes("${") || entry.args!.some((a) => a.includes("${"))) throw new Error("Pi expands ${NAME} only in env and headers, not in the command, its arguments or cwd");
      return { name, origin, shown, entry };
    }
    if (type === "http") {
      if (typeof raw.url !== "string") throw new Error("an HTTP server needs a url");
      const url = convertValue(raw.url, vars);
      if (url.includes("${")) throw new Error("Pi expands ${NAME} only in env and headers, not in the url");
      const parsed = new URL(url);
      if (parsed.protocol !== "http:" && parsed.protocol !== "https:") throw new Error(`its url is not http(s): ${parsed.protocol}`);
      const headers = stringMap(raw.headers, "headers", vars);
      return { name, origin, shown, entry: { url, ...(headers ? { headers } : {}) } };
    }
    throw new Error(`its type ${JSON.stringify(type)} is not stdio or http`);
  } catch (error) {
    return { name, origin, shown, skipped: errorText(error) };
  }
}

/** jsonc-parser, run when the first mcp.json is read: its tables cost activation ~0.5 ms otherwise. */
const loadJsonc = (): typeof import("jsonc-parser") => require("jsonc-parser") as typeof import("jsonc-parser");

/** Every server of one VS Code mcp.json text, offered or skipped with a reason; `problems` for a file that does not parse. */
export function convertVsCodeMcp(text: string, origin: VsCodeMcpOrigin, vars: ResolveVariables): { servers: OfferedMcpServer[]; problems: string[] } {
  const errors: ParseError[] = [];
  const { parse, printParseErrorCode } = loadJsonc();
  const parsed: unknown = parse(text, errors, { allowTrailingComma: true, disallowComments: false });
  if (errors.length > 0 || !isRecord(parsed)) return { servers: [], problems: errors.length > 0 ? errors.map((e) => `${printParseErrorCode(e.error)} at offset ${e.offset}`) : ["not a JSON object"] };
  const servers = isRecord(parsed.servers) ? parsed.servers : {};
  return { servers: Object.entries(servers).map(([name, raw]) => convertServer(name, raw, origin, vars)), problems: [] };
}
