/** The performance mark dist/extension.js (start.ts) sets when it begins to load the extension's bundle. */
export const LOAD_MARK = "pi-agent-vscode:load";
