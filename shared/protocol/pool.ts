import { Type, type TSchema } from "@sinclair/typebox";
import { lazySchema, type StaticOf } from "./lazy-schema";

/**
 * The wire of a pool of bundled hosts (`agent-host --pool`, agent-host/pool/): one process, a
 * session per worker thread, its lines multiplexed on the process's stdin/stdout. A session's RPC
 * line travels as `<session> <line>`: the id and one space cut off, the rest passed on as it is
 * (never re-encoded). A control frame is a line of its own, `! <json>`, one of the frames below.
 */
export const POOL_CONTROL_PREFIX = "! ";

/** A session's id on the pool's wire: no space, not "!" (the control prefix). */
const SessionId = () => Type.String({ pattern: "^[A-Za-z0-9_.-]{1,64}$" });

/** Starts a session: the host's rpc mode (`runCli`) in a worker with this argv and environment. */
export const PoolOpen = lazySchema(() => Type.Object({
  type: Type.Literal("open"),
  session: SessionId(),
  /** The host's arguments (what follows `agent-host.js` on a command line). */
  argv: Type.Array(Type.String()),
  /** The worker's whole `process.env`. */
  env: Type.Record(Type.String(), Type.String()),
  /** The worker's heap caps (Node's `resourceLimits`), e.g. the young generation the editor gives its host. */
  resourceLimits: Type.Optional(Type.Object({
    maxYoungGenerationSizeMb: Type.Optional(Type.Number({ exclusiveMinimum: 0 })),
    maxOldGenerationSizeMb: Type.Optional(Type.Number({ exclusiveMinimum: 0 })),
  })),
}));
export type PoolOpen = StaticOf<typeof PoolOpen>;

/** Ends the session's input (the host then ends as at the end of its stdin). */
export const PoolEnd = lazySchema(() => Type.Object({ type: Type.Literal("end"), session: SessionId() }));
export type PoolEnd = StaticOf<typeof PoolEnd>;

/** Stops the session's worker now (what SIGKILL is to a host of its own). */
export const PoolKill = lazySchema(() => Type.Object({ type: Type.Literal("kill"), session: SessionId() }));
export type PoolKill = StaticOf<typeof PoolKill>;

/** The session ended: its worker's exit code; `error` when it threw or ran out of heap. Its last line. */
export const PoolExit = lazySchema(() => Type.Object({
  type: Type.Literal("exit"),
  session: SessionId(),
  code: Type.Union([Type.Integer(), Type.Null()]),
  error: Type.Optional(Type.String()),
}));
export type PoolExit = StaticOf<typeof PoolExit>;

/** Text the session wrote to its stderr. */
export const PoolStderr = lazySchema(() => Type.Object({ type: Type.Literal("stderr"), session: SessionId(), text: Type.String() }));
export type PoolStderr = StaticOf<typeof PoolStderr>;

/** Control frames to the pool, by type. */
export const poolInboundSchemas = { open: PoolOpen, end: PoolEnd, kill: PoolKill } as const;
export type PoolInbound = PoolOpen | PoolEnd | PoolKill;
/** Control frames from the pool, by type. */
export const poolOutboundSchemas = { exit: PoolExit, stderr: PoolStderr } as const;
export type PoolOutbound = PoolExit | PoolStderr;

/** The validators' keys (compiled at build time: the host's `in:` set, the extension's `out:` set). */
export const poolValidatorKey = (direction: "in" | "out", type: string): string => `${direction}:pool:${type}`;

/** Every pool schema by its validator key, for the build (agent-host/rpc/precompiled-schemas.ts). */
export function poolSchemasByKey(direction: "in" | "out"): Record<string, TSchema> {
  const table: Record<string, () => TSchema> = direction === "in" ? poolInboundSchemas : poolOutboundSchemas;
  return Object.fromEntries(Object.entries(table).map(([type, make]) => [poolValidatorKey(direction, type), make()]));
}
