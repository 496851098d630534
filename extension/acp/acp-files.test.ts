import { strict as assert } from "node:assert";
import { promises, mkdirSync, mkdtempSync, realpathSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { FileRequests } from "./acp-files";

describe("ACP fs/read_text_file for a sandboxed agent (acp-files.ts)", () => {
  let home: string;
  beforeEach(() => (home = realpathSync(mkdtempSync(join(tmpdir(), "acp-files-")))));
  afterEach(() => rmSync(home, { recursive: true, force: true }));

  it("does not read Pi's logins where PI_CODING_AGENT_DIR puts its agent dir (a dotfiles repository as the workspace)", async () => {
    const dotfiles = join(home, "dotfiles");
    mkdirSync(join(dotfiles, "pi-agent"), { recursive: true });
    writeFileSync(join(dotfiles, "pi-agent", "auth.json"), '{"anthropic":{"key":"API-KEY"}}\n');
    writeFileSync(join(dotfiles, "notes.txt"), "NOTES\n");
    const files = { readTextFile: (path: string) => promises.readFile(path, "utf8"), writeTextFile: () => Promise.resolve() };
    const requests = new FileRequests({ cwd: dotfiles, files, sandboxed: true, home, agentDir: join(dotfiles, "pi-agent") }, () => "the agent");
    await assert.rejects(requests.read({ sessionId: "s", path: join(dotfiles, "pi-agent", "auth.json") }), /hidden from the agent/);
    assert.equal((await requests.read({ sessionId: "s", path: join(dotfiles, "notes.txt") })).content, "NOTES\n");
  });
});
