import type { TSchema } from "@sinclair/typebox";
import { check, head, validator, type Checked } from "./keyed-check";
import { poolInboundSchemas, poolOutboundSchemas, poolValidatorKey, type PoolInbound, type PoolOutbound } from "./pool";

/** Strict check of a pool's control frame (pool.ts): to the pool (`in`) or from it (`out`). */
export function checkPoolControl(direction: "in", value: unknown): Checked<PoolInbound>;
export function checkPoolControl(direction: "out", value: unknown): Checked<PoolOutbound>;
export function checkPoolControl(direction: "in" | "out", value: unknown): Checked<PoolInbound | PoolOutbound> {
  const type = head(value)?.type;
  const table: Record<string, () => TSchema> = direction === "in" ? poolInboundSchemas : poolOutboundSchemas;
  if (type === undefined || !Object.hasOwn(table, type)) return { ok: false, error: `Unknown pool frame: ${type ?? "no type"}` };
  return check(validator(poolValidatorKey(direction, type), table[type]!), value, undefined, type);
}
