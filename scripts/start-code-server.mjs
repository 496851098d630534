#!/usr/bin/env node
// `npm start`: VS Code in the browser (code-server 4.100.3) with this extension loaded from
// source. Options: --version V  --port N  --extension <dir>  --workspace <dir>  --no-build.
// The work is in test/vscode/harness/start.ts (TypeScript, loaded through tsx).
import { tsImport } from "tsx/esm/api";

/** @type {typeof import("../test/vscode/harness/start.js")} */
const { startDev } = await tsImport("../test/vscode/harness/start.ts", import.meta.url);
await startDev(process.argv.slice(2));
