// What a failed or timed-out run leaves under .test-artifacts/: a screenshot, the browser
// console, the bridge journal, code-server's own log and the VS Code logs (server, extension
// host, output channels).
import * as fs from "node:fs";
import * as path from "node:path";
import type { Page } from "playwright-core";

export interface Evidence {
  page?: Page;
  consoleLines?: string[];
  journal?: string[];
  codeServerLog?: string;
  userDataDir?: string;
}

export async function saveArtifacts(dir: string, evidence: Evidence): Promise<void> {
  fs.mkdirSync(dir, { recursive: true });
  if (evidence.page && !evidence.page.isClosed()) {
    await evidence.page
      .screenshot({ path: path.join(dir, "failure.png"), timeout: 10_000 })
      .catch((err: Error) => fs.writeFileSync(path.join(dir, "failure-screenshot-error.txt"), err.message));
  }
  if (evidence.consoleLines) fs.writeFileSync(path.join(dir, "browser-console.log"), evidence.consoleLines.join("\n") + "\n");
  if (evidence.journal) fs.writeFileSync(path.join(dir, "ui-bridge.log"), evidence.journal.join("\n") + "\n");
  if (evidence.codeServerLog && fs.existsSync(evidence.codeServerLog)) {
    fs.copyFileSync(evidence.codeServerLog, path.join(dir, "code-server.log"));
  }
  const logs = evidence.userDataDir && path.join(evidence.userDataDir, "logs");
  if (logs && fs.existsSync(logs)) fs.cpSync(logs, path.join(dir, "vscode-logs"), { recursive: true });
}

/** Echoes what another process appends to a file (mocha's reporter output). */
export class FileTail {
  private offset = 0;
  private readonly timer: NodeJS.Timeout;

  constructor(
    private readonly file: string,
    private readonly out: (text: string) => void,
  ) {
    this.timer = setInterval(() => this.flush(), 200);
  }

  flush(): void {
    let fd: number;
    try {
      fd = fs.openSync(this.file, "r");
    } catch {
      return;
    }
    try {
      const size = fs.fstatSync(fd).size;
      if (size <= this.offset) return;
      const buffer = Buffer.alloc(size - this.offset);
      fs.readSync(fd, buffer, 0, buffer.length, this.offset);
      this.offset = size;
      this.out(buffer.toString("utf8"));
    } finally {
      fs.closeSync(fd);
    }
  }

  stop(): void {
    clearInterval(this.timer);
    this.flush();
  }
}
