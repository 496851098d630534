export type RpcErrorKind = "failed" | "timeout" | "exited" | "cancelled" | "invalid";

/** Why a request did not succeed: the agent said no, it did not answer in time, or it is gone. */
export class RpcError extends Error {
  constructor(
    readonly kind: RpcErrorKind,
    readonly command: string,
    message: string,
  ) {
    super(message);
    this.name = "RpcError";
  }
}
