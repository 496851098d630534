import type { EncodedJson } from "../../../shared/jsonl";
import type { CommandOf, CommandType, ResponseData } from "../../../shared/protocol";
import type { HostRuntime } from "../runtime";
import type { DeltaPacing } from "../delta-pacing";

export interface HandlerContext {
  runtime: HostRuntime;
  send(frame: object): void;
  /** The wire's pacing of streamed deltas (set_delta_interval, get_state's deltaIntervalMs). */
  pacing: DeltaPacing;
}

/** A command's handler: resolves with the response data (undefined where the command has none), throws to fail. */
/** A handler answers with its response's data, or that data already encoded (see EncodedJson). */
export type Handler<K extends CommandType> = (command: CommandOf<K>, context: HandlerContext) => Answer<K> | Promise<Answer<K>>;
type Answer<K extends CommandType> = ResponseData<K> | EncodedJson<ResponseData<K>>;
export type Handlers = { [K in CommandType]: Handler<K> };
