/**
 * The ACP SDK (ESM only): its types for the face's files, and its values required here once, so
 * that esbuild bundles it into dist/acp-mode.js (CommonJS) and source runs (tsx) load it too.
 */
import type * as Acp from "@agentclientprotocol/sdk" with { "resolution-mode": "import" };

export type * from "@agentclientprotocol/sdk" with { "resolution-mode": "import" };

export const acp = require("@agentclientprotocol/sdk") as typeof Acp;
