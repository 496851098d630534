import { h, icon } from "./dom";
import { cycleModeKey } from "./keys";

const starters = [
  { icon: "book", text: "Explain how this project is organised and where to start reading" },
  { icon: "bug", text: "Find the cause of a bug: " },
  { icon: "beaker", text: "Write tests for @selection" },
  { icon: "git-compare", text: "Review my uncommitted changes for mistakes" },
];

/**
 * What an empty chat shows: a few starters (a click puts one into the message box, to finish or
 * send) and how to attach context, run commands and switch modes. Hidden by CSS as soon as the
 * transcript has an entry, so nothing of it runs per event.
 */
export function welcome(fill: (text: string) => void): HTMLElement {
  const buttons = starters.map((s) => {
    const button = h("button", { type: "button", class: "starter", title: "Put this into the message box", "aria-label": `Start with: ${s.text}` }, icon(s.icon), h("span", {}, s.text));
    button.addEventListener("click", () => fill(s.text));
    return button;
  });
  return h("section", { class: "welcome", "aria-label": "Getting started" },
    h("div", { class: "welcome-title" }, "Ask Pi to explain, change or fix code in this workspace."),
    h("div", { class: "welcome-subtitle" }, "Try one of these:"),
    h("div", { class: "starters" }, ...buttons),
    h("ul", { class: "welcome-hints" },
      h("li", {}, h("kbd", {}, "@"), " attaches files, folders, @selection or @problems; paste or drop images"),
      h("li", {}, h("kbd", {}, "/"), " lists commands: /new, /resume, /model, /mode, /compact, /export…"),
      h("li", { class: "hint-mode" }, h("kbd", {}, cycleModeKey), " switches the permission mode (Ask, Auto-accept edits, Plan)"),
      h("li", {}, h("kbd", {}, "!"), "cmd runs a shell command")),
  );
}
