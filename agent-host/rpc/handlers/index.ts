import { promptingHandlers } from "./prompting";
import { sessionHandlers } from "./session";
import { stateHandlers } from "./state";
import type { Handlers } from "./types";

/** Every command of Pi 0.87.1 and seed 001, each with its handler. */
export const handlers: Handlers = { ...promptingHandlers, ...stateHandlers, ...sessionHandlers };
export type { HandlerContext } from "./types";
