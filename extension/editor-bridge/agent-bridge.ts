/**
 * One agent process's editor bridge (#35), a Disposable owned by the process's lifetime: the
 * loopback server (bridge-server.ts) that runs the editor's host tools for the Pi extension
 * dist/pi-editor-bridge.mjs, and the handoff file that extension reads and deletes at load.
 *
 * The handoff's folder is the agent's to delete in (a sandboxed pi gets it as a writable root):
 * 0700 in the system temp folder, the file 0600. The editor deletes the file too once the agent
 * answered get_state (it loads its extensions before that), so a bridge that never loaded leaves
 * nothing readable behind. No vscode import: the peer tests run it with real pi.
 */
import * as fs from "node:fs";
import * as os from "node:os";
import * as path from "node:path";
import type { HostTool } from "../../shared/rpc/host-tool-registry";
import { EDITOR_BRIDGE_ENV, type BridgeHandoff, type BridgeMode } from "./bridge-protocol";
import { startBridgeServer, type BridgeServer } from "./bridge-server";

export class AgentBridge {
  private loaded = false;
  private decide!: (mode: BridgeMode) => void;
  private readonly decided = new Promise<BridgeMode>((resolve) => (this.decide = resolve));

  private constructor(
    private readonly server: BridgeServer,
    /** The folder that holds the handoff (the agent deletes the file in it). */
    readonly folder: string,
    private readonly handoffFile: string,
  ) {}

  /** Starts the server and writes the handoff for `tools`. */
  static async start(tools: () => readonly HostTool[]): Promise<AgentBridge> {
    let bridge: AgentBridge | undefined;
    const server = await startBridgeServer({
      tools,
      mode: () => bridge!.decided,
      onHello: () => bridge?.helloed(),
    });
    const folder = fs.mkdtempSync(path.join(os.tmpdir(), "pi-editor-bridge-"));
    fs.chmodSync(folder, 0o700);
    const handoffFile = path.join(folder, "handoff.json");
    const handoff: BridgeHandoff = { url: server.url, token: server.token, tools: tools().map((tool) => tool.definition) };
    // wx: a file planted at that name (it cannot be: the folder is new and ours) is never reused.
    fs.writeFileSync(handoffFile, JSON.stringify(handoff), { mode: 0o600, flag: "wx" });
    bridge = new AgentBridge(server, folder, handoffFile);
    return bridge;
  }

  /** For the agent's environment: where the handoff is (a path, never the token). */
  get env(): Readonly<Record<string, string>> {
    return { [EDITOR_BRIDGE_ENV]: this.handoffFile };
  }

  /** Whether the Pi extension loaded and reached the editor. */
  get bridgeLoaded(): boolean {
    return this.loaded;
  }

  /** Tool calls running now (for tests). */
  get running(): number {
    return this.server.running;
  }

  /** The agent answered get_state: it has loaded its extensions; an unread handoff is removed. */
  agentStarted(): void {
    fs.rmSync(this.handoffFile, { force: true });
  }

  /** The probe's finding: the agent takes set_host_tools ("protocol"), or it gets the tools through this bridge. */
  setMode(mode: BridgeMode): void {
    this.decide(mode);
  }

  private helloed(): void {
    this.loaded = true;
    fs.rmSync(this.handoffFile, { force: true });
  }

  dispose(): void {
    this.decide("bridge"); // nothing waits forever on a mode
    void this.server.close();
    fs.rmSync(this.folder, { recursive: true, force: true });
  }
}
