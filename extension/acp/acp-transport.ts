/**
 * An ACP agent process behind the `FrameTransport` every agent has: the supervisor starts it and
 * hands the chat an `RpcClient` over it like any other; Pi frames go in and come out, ACP
 * (newline-delimited JSON-RPC, the official SDK) runs on the child's stdio (acp-bridge.ts).
 */
import { spawn, type ChildProcess } from "node:child_process";
import { Writable } from "node:stream";
import { stopChild } from "../../shared/node/process-transport";
import { transportEvents, type FrameTransport, type TransportClosed } from "../../shared/rpc/transport";
import { AcpBridge } from "./acp-bridge";
import type { AcpBridgeOptions } from "./acp-bridge-options";
import { pacedInput } from "./paced-input";
import { loadAcpSdk, type AcpSdk } from "./sdk";

export interface AcpSpawn {
  command: string;
  args: readonly string[];
  cwd: string;
  env?: NodeJS.ProcessEnv;
}

export class AcpTransport implements FrameTransport {
  private readonly emit = transportEvents();
  readonly onFrame = this.emit.events.onFrame;
  readonly onBadLine = this.emit.events.onBadLine;
  readonly onStderr = this.emit.events.onStderr;
  readonly onClose = this.emit.events.onClose;
  readonly pid: number | undefined;
  readonly bridge: AcpBridge;
  private closed = false;

  private constructor(private readonly child: ChildProcess, sdk: AcpSdk, options: AcpBridgeOptions) {
    this.pid = child.pid;
    child.stderr!.setEncoding("utf8");
    child.stderr!.on("data", (text: string) => this.emit.stderr.fire(text));
    child.on("error", (error) => this.markClosed({ code: null, signal: null, error: error.message }));
    child.on("close", (code, signal) => this.markClosed({ code, signal }));
    child.stdin!.on("error", () => {
      /* reported through close */
    });
    this.bridge = new AcpBridge(sdk, (frame) => this.deliver(frame), options);
    const stream = sdk.ndJsonStream(Writable.toWeb(child.stdin!) as WritableStream<Uint8Array>, pacedInput(child.stdout!));
    void this.bridge.connect(stream).catch(() => undefined); // the first command's response carries the failure
    // An agent whose ACP connection ended is of no use: it is stopped, so that its exit is reported.
    void this.bridge.closed.then(() => {
      if (!this.exited && !this.closed) setTimeout(() => this.exited || this.child.kill("SIGTERM"), 1000).unref();
    });
  }

  /** Starts the agent and opens its ACP session (commands sent meanwhile wait for it). */
  static async spawn(launch: AcpSpawn, options: Omit<AcpBridgeOptions, "cwd">): Promise<AcpTransport> {
    const sdk = await loadAcpSdk();
    const child = spawn(launch.command, [...launch.args], { cwd: launch.cwd, env: launch.env ?? process.env, stdio: ["pipe", "pipe", "pipe"], windowsHide: true });
    return new AcpTransport(child, sdk, { invocation: { command: launch.command, args: launch.args }, ...options, cwd: launch.cwd });
  }

  get exited(): boolean {
    return this.child.exitCode !== null || this.child.signalCode !== null;
  }

  send(frame: unknown): Promise<void> {
    if (this.closed) return Promise.reject(new Error("The agent's input is closed"));
    this.bridge.receive(frame as Record<string, unknown> & { type: string });
    return Promise.resolve();
  }

  endInput(): void {
    this.child.stdin?.end();
  }

  stop(graceMs = 3000): Promise<void> {
    this.bridge.dispose();
    return stopChild(this.child, graceMs, () => this.endInput());
  }

  kill(signal: NodeJS.Signals = "SIGKILL"): void {
    this.child.kill(signal);
  }

  private deliver(frame: unknown): void {
    if (!this.closed) this.emit.frame.fire(frame);
  }

  private markClosed(info: TransportClosed): void {
    if (this.closed) return;
    this.closed = true;
    this.bridge.dispose();
    this.emit.close.fire(info);
  }

  dispose(): void {
    if (!this.exited) this.child.kill("SIGTERM");
    this.bridge.dispose();
    this.emit.dispose();
  }
}
