import { strict as assert } from "node:assert";
import { existsSync, mkdirSync, mkdtempSync, readdirSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { removeStubsOfDeadProcesses } from "./stub-ledger";
import { acquireStubs, isStub, releaseStubs } from "./stubs";

describe("sandbox: the stubs this process holds (stubs.ts)", () => {
  let dir: string;
  const ledgerBefore = process.env.PI_SANDBOX_LEDGER_DIR;
  before(() => {
    dir = mkdtempSync(join(tmpdir(), "stubs-test-"));
    mkdirSync(join(dir, "ledger"), { mode: 0o700 });
    // Read at the first use of the ledger in this process: where another test made stubs first, its folder (nothing here depends on which).
    process.env.PI_SANDBOX_LEDGER_DIR = join(dir, "ledger");
  });
  after(() => {
    if (ledgerBefore === undefined) delete process.env.PI_SANDBOX_LEDGER_DIR;
    else process.env.PI_SANDBOX_LEDGER_DIR = ledgerBefore;
    rmSync(dir, { recursive: true, force: true });
  });

  it("an entry under this process's pid written by a process that had the pid before: its stubs are a dead process's", () => {
    const ledger = mkdtempSync(join(dir, "own-pid-"));
    const envrc = join(dir, ".envrc");
    writeFileSync(join(ledger, `${process.pid}.json`), JSON.stringify({ start: "1", paths: [envrc] }));
    const removed: string[] = [];
    removeStubsOfDeadProcesses(ledger, (paths) => void removed.push(...paths));
    assert.deepEqual(removed, [envrc], "the earlier process's stub is to be removed");
    assert.deepEqual(readdirSync(ledger), [], "and its entry");
  });

  it("one filled while held (by a writer outside the sandbox: another agent, the user) is a file of the user's: shown by the review, kept", () => {
    const npmrc = join(dir, ".npmrc");
    const vscode = join(dir, ".vscode");
    writeFileSync(npmrc, ""); // what bwrap makes on the host
    mkdirSync(vscode);
    acquireStubs([npmrc, vscode]);
    assert.equal(isStub(npmrc), true, "empty: the sandbox's");
    writeFileSync(npmrc, "script-shell=/tmp/evil.sh\n");
    writeFileSync(join(vscode, "tasks.json"), "{}");
    assert.equal(isStub(npmrc), false, "a .npmrc with content is a change the review lists");
    assert.equal(isStub(vscode), false, "a .vscode/ with a file in it too");
    releaseStubs([npmrc, vscode]);
    assert.ok(existsSync(npmrc) && existsSync(join(vscode, "tasks.json")), "not removed");
  });
});
