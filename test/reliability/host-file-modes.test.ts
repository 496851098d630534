// What the host writes about a session is private: after a real session with a tool call that
// changes a file (a checkpoint is recorded), a bash call whose output is saved in full, and an
// export, the session file, the checkpoint store's objects and manifest, the full output in the
// temp folder and the exported HTML are mode 0600, and the folders the host created for them 0700
// (the umask only takes bits away).
import { strict as assert } from "node:assert";
import { mkdirSync, mkdtempSync, readdirSync, rmSync, statSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join, relative } from "node:path";
import { ProcessTransport } from "../../shared/node/process-transport";
import { RpcClient } from "../../shared/rpc";
import { startMockLlm, type MockLlm } from "../support/mock-llm";
import { peerLaunch, type PeerLaunch } from "../support/peers";

/** Every file and folder below `dir` (itself included), with its permission bits. */
function modes(dir: string): { path: string; dir: boolean; mode: number }[] {
  const stat = statSync(dir);
  if (!stat.isDirectory()) return [{ path: dir, dir: false, mode: stat.mode & 0o777 }];
  return [{ path: dir, dir: true, mode: stat.mode & 0o777 }, ...readdirSync(dir).flatMap((name) => modes(join(dir, name)))];
}

describe("agent host: session, checkpoint and export files are private (0600)", function () {
  this.timeout(60_000);
  let llm: MockLlm;
  let launch: PeerLaunch;
  let out: string;
  before(async () => {
    llm = await startMockLlm();
    launch = peerLaunch("host", { mockBaseUrl: llm.baseUrl });
    out = mkdtempSync(join(tmpdir(), "file-modes-"));
  });
  after(async () => {
    await llm.close();
    launch.cleanup();
    rmSync(out, { recursive: true, force: true });
  });

  it("creates every file 0600 and every folder 0700", async () => {
    // Folders that do not exist yet: the host creates them.
    const sessionDir = join(out, "sessions", "nested");
    const checkpointDir = join(out, "checkpoints");
    const exportDir = join(out, "exports");
    mkdirSync(exportDir); // the client picks (and makes) the export's folder
    const args = launch.args.filter((a) => a !== "--no-session").concat("--session-dir", sessionDir, "--checkpoint-dir", checkpointDir);
    const transport = ProcessTransport.spawn(launch.command, args, { env: launch.env, cwd: launch.cwd });
    const client = new RpcClient(transport);
    const fullOutputs: string[] = [];
    client.on("tool_execution_end", (e) => {
      const path = (e.result as { details?: { fullOutputPath?: string } }).details?.fullOutputPath;
      if (path) fullOutputs.push(path);
    });
    try {
      await client.request("set_auto_retry", { enabled: false });
      writeFileSync(join(launch.cwd, "notes.txt"), "before"); // its content goes into the store
      // and a bash output long enough to be saved in full to a temp file
      llm.enqueue({ toolCalls: [{ name: "write", arguments: { path: "notes.txt", content: "after" } }, { name: "bash", arguments: { command: "seq 1 5000" } }] }, { text: "written" });
      const settled = client.waitForSettled();
      await client.request("prompt", { message: "write the notes" });
      await settled;
      await client.request("export_html", { outputPath: join(exportDir, "session.html") });
    } finally {
      await transport.stop();
      client.dispose();
    }
    const found = [...modes(join(out, "sessions")), ...modes(checkpointDir), ...modes(exportDir).filter((f) => !f.dir), ...fullOutputs.flatMap(modes)];
    fullOutputs.forEach((f) => rmSync(f, { force: true }));
    const files = found.filter((f) => !f.dir);
    const wrong = found.filter((f) => f.mode !== (f.dir ? 0o700 : 0o600));
    const kinds = ["sessions", "checkpoints/objects", "checkpoints/sessions", "exports"].filter((k) => files.some((f) => relative(out, f.path).startsWith(k)));
    if (fullOutputs.length > 0) kinds.push("bash full output");
    console.log(`      figures: files ${files.length} (${kinds.join(", ")}), folders ${found.length - files.length}, not private ${wrong.length}`);
    for (const f of wrong) console.log(`        ${relative(out, f.path)} ${f.mode.toString(8)}`);
    assert.equal(kinds.length, 5, "a session file, a checkpoint object and manifest, an export and a full output were written");
    assert.deepEqual(wrong, []);
  });
});
