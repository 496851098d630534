import type { CommandOf, CommandType, ResponseData } from "../../../shared/protocol";
import type { HostRuntime } from "../runtime";

export interface HandlerContext {
  runtime: HostRuntime;
  send(frame: object): void;
}

/** A command's handler: resolves with the response data (undefined where the command has none), throws to fail. */
export type Handler<K extends CommandType> = (command: CommandOf<K>, context: HandlerContext) => ResponseData<K> | Promise<ResponseData<K>>;
export type Handlers = { [K in CommandType]: Handler<K> };
