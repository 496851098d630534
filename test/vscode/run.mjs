#!/usr/bin/env node
// `npm run test:vscode`: the real-VS-Code harness (code-server + headless chromium).
// The harness is TypeScript under harness/, loaded through tsx. See harness/main.ts for options.
import { tsImport } from "tsx/esm/api";

/** @type {typeof import("./harness/main.js")} */
const { main } = await tsImport("./harness/main.ts", import.meta.url);
const status = await main(process.argv.slice(2));
process.exit(status);
