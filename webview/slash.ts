import type { SlashCommandInfo } from "../shared/webview-protocol";

/** The command name being typed: the text starts with "/" and the caret is still in that word. */
export function slashQuery(text: string, caret: number): string | undefined {
  if (!text.startsWith("/")) return undefined;
  const word = /^\/(\S*)/.exec(text)?.[1] ?? "";
  if (caret < 1 || caret > word.length + 1) return undefined;
  return word;
}

/** The command named exactly first, then those whose name starts with the query, then those containing it; at most `limit`. */
export function matchCommands(query: string, commands: readonly SlashCommandInfo[], limit = 12): SlashCommandInfo[] {
  const q = query.toLowerCase();
  // The command typed whole comes first ("/mode" before "/model"), so that Enter runs it.
  const starts = commands.filter((c) => c.name.toLowerCase().startsWith(q)).sort((a, b) => Number(b.name.toLowerCase() === q) - Number(a.name.toLowerCase() === q));
  const contains = commands.filter((c) => !c.name.toLowerCase().startsWith(q) && c.name.toLowerCase().includes(q));
  return [...starts, ...contains].slice(0, limit);
}

/** The text with the command word replaced by `/name ` (the rest kept). */
export function acceptCommand(text: string, name: string): string {
  const rest = text.replace(/^\/\S*\s?/, "");
  return `/${name} ${rest}`;
}
