import * as assert from "node:assert/strict";
import { findOnWindowsPath, quoteWindowsArg, spawnCommand } from "./windows-command";

const files = new Set(["C:\\npm\\pi.cmd", "C:\\tools\\omp.exe", "D:\\My Tools\\agent.bat"]);
const lookup = { env: { PATH: "C:\\tools;C:\\npm", PATHEXT: ".COM;.EXE;.BAT;.CMD", ComSpec: "C:\\Windows\\system32\\cmd.exe" }, exists: (f: string) => files.has(f) };

describe("spawning agent commands on Windows", () => {
  it("finds commands on the PATH with their PATHEXT extension", () => {
    assert.equal(findOnWindowsPath("pi", lookup), "C:\\npm\\pi.cmd");
    assert.equal(findOnWindowsPath("omp", lookup), "C:\\tools\\omp.exe");
    assert.equal(findOnWindowsPath("D:\\My Tools\\agent", lookup), "D:\\My Tools\\agent.bat");
    assert.equal(findOnWindowsPath("missing", lookup), undefined);
  });

  it("quotes arguments by the MSVCRT rules", () => {
    assert.equal(quoteWindowsArg("plain"), "plain");
    assert.equal(quoteWindowsArg("two words"), '"two words"');
    assert.equal(quoteWindowsArg(""), '""');
    assert.equal(quoteWindowsArg('say "hi"'), '"say \\"hi\\""');
    assert.equal(quoteWindowsArg("C:\\dir with space\\"), '"C:\\dir with space\\\\"');
  });

  it("runs a .exe directly and a .cmd shim through cmd.exe with both quoting layers", () => {
    assert.deepEqual(spawnCommand("omp", ["--mode", "rpc"], "win32", lookup), { command: "C:\\tools\\omp.exe", args: ["--mode", "rpc"] });
    const shim = spawnCommand("pi", ["--mode", "rpc", "--session", "C:\\s\\a b&c.jsonl"], "win32", lookup);
    assert.equal(shim.command, "C:\\Windows\\system32\\cmd.exe");
    assert.equal(shim.verbatim, true);
    assert.deepEqual(shim.args.slice(0, 3), ["/d", "/s", "/c"]);
    assert.equal(shim.args[3], '"C:\\npm\\pi.cmd --mode rpc --session ^"C:\\s\\a^ b^&c.jsonl^""');
  });

  it("leaves other platforms alone (no shell anywhere)", () => {
    assert.deepEqual(spawnCommand("pi", ["--session", "a b"], "linux", lookup), { command: "pi", args: ["--session", "a b"] });
  });
});
