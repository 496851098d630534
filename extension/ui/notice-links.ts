import { visibleText } from "../../shared/visible-text";

/** What a closable notice offers: a link in its text that runs `command` with `args`. */
export interface NoticeLink {
  label: string;
  command: string;
  args?: readonly unknown[];
}

/**
 * The links of a notice as notification markup (`[label](command:id?args)`, which VS Code renders as
 * links that run the command). A label may be foreign (a question's answer): shown as written, and
 * never able to end its link early or make one of its own (`]` is drawn as the full-width `］`).
 * The arguments are encoded, parentheses too (a `)` would end the link).
 */
export function noticeLinks(links: readonly NoticeLink[]): string {
  return links.map(({ label, command, args }) => `[${visibleText(label).replace(/\]/g, "\uff3d")}](command:${command}${args ? `?${uriArgs(args)}` : ""})`).join(" · ");
}

function uriArgs(args: readonly unknown[]): string {
  return encodeURIComponent(JSON.stringify(args)).replace(/[()]/g, (c) => `%${c.charCodeAt(0).toString(16).toUpperCase()}`);
}
