import type { Plugin } from "esbuild";
/** See external-once.mjs. */
export declare const externalOnce: Plugin;
