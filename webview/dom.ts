/** Builds elements from text and attributes only: nothing here parses HTML. */
export type Child = Node | string | number | null | undefined | false;
export type Attrs = Record<string, string | number | boolean | null | undefined>;

export function h<K extends keyof HTMLElementTagNameMap>(tag: K, attrs?: Attrs, ...children: Child[]): HTMLElementTagNameMap[K];
export function h(tag: string, attrs?: Attrs, ...children: Child[]): HTMLElement;
export function h(tag: string, attrs: Attrs = {}, ...children: Child[]): HTMLElement {
  const element = document.createElement(tag);
  for (const [name, value] of Object.entries(attrs)) {
    if (/^on|^style$/i.test(name)) throw new Error(`h(): ${name} is not allowed`);
    if (value === undefined || value === null || value === false) continue;
    element.setAttribute(name, value === true ? "" : String(value));
  }
  append(element, ...children);
  return element;
}

export function append(parent: Node, ...children: Child[]): void {
  for (const child of children) {
    if (child === null || child === undefined || child === false) continue;
    parent.appendChild(typeof child === "string" || typeof child === "number" ? document.createTextNode(String(child)) : child);
  }
}

/** A codicon (font icon), hidden from screen readers. */
export function icon(name: string, extra = ""): HTMLElement {
  return h("span", { class: `codicon codicon-${name}${extra ? ` ${extra}` : ""}`, "aria-hidden": "true" });
}

/** A small toolbar button with an icon and an accessible label. */
export function iconButton(name: string, label: string, action: string, attrs: Attrs = {}): HTMLButtonElement {
  return h("button", { type: "button", class: "icon-button", "aria-label": label, title: label, "data-action": action, ...attrs }, icon(name));
}
