/**
 * Node built-ins only some work needs (processes, line reading, compression, running extension
 * code), loaded on first use: the host answers its first command before paying for them.
 */
export const childProcess = (): typeof import("node:child_process") => require("node:child_process") as typeof import("node:child_process");
export const readline = (): typeof import("node:readline") => require("node:readline") as typeof import("node:readline");
export const zlib = (): typeof import("node:zlib") => require("node:zlib") as typeof import("node:zlib");
export const vm = (): typeof import("node:vm") => require("node:vm") as typeof import("node:vm");
export const workerThreads = (): typeof import("node:worker_threads") => require("node:worker_threads") as typeof import("node:worker_threads");
