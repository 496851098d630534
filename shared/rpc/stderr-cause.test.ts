import { strict as assert } from "node:assert";
import { stderrCause } from "./stderr-cause";

describe("stderrCause: what failed, from an agent's stderr", () => {
  it("omp's native lock failure: the error line, not the stack's tail (#32, shot 046)", () => {
    const stderr = [
      "Error: Failed to acquire native file lock for /s/.x.jsonl.lock.os: Operation not permitted (os error 1)",
      "    at tryAcquire (unknown)",
      "    at #n (/p/omp/dist/cli.js:4725:3401)",
      "    at #s (/p/omp/dist/cli.js:4725:3172)",
      "    at writeTextAtomic (/p/omp/dist/cli.js:4726:1992)",
      "    at async #Le (/p/omp/dist/cli.js:4746:1636)",
      "    at async <anonymous> (/p/omp/dist/cli.js:4745:8158)",
    ].join("\n");
    assert.equal(stderrCause(stderr), "Error: Failed to acquire native file lock for /s/.x.jsonl.lock.os: Operation not permitted (os error 1)");
  });

  it("bun's report: the source lines around the throw (with words such as 'failed' in them) are not the cause", () => {
    const stderr = [
      "4721 | ${t}",
      '4722 | ${l}`;try{Xl.mkdirSync(o,{recursive:!0})}catch(p){if(!me(p))se("Terminal breadcrumb write failed",{err:p})}}',
      '4725 | `);if(t<0)return;if(n<0)throw Error("Session title slot metadata exceeds fix',
      "                  ^",
      "error: Failed to acquire native file lock for /a/.s.jsonl.lock.os: Operation not permitted (os error 1)",
      ' code: "GenericFailure"',
      "      at tryAcquire (unknown:1:1)",
      "      at writeTextAtomic (/p/cli.js:4726:1992)",
    ].join("\n");
    assert.equal(stderrCause(stderr), "error: Failed to acquire native file lock for /a/.s.jsonl.lock.os: Operation not permitted (os error 1)");
  });

  it("a stack whose error line came in an earlier chunk than the frames, after warnings", () => {
    const stderr = "(node:1) Warning: something old\nTypeError: x is not a function\n    at f (a.js:1:1)\n    at g (a.js:2:2)\n";
    assert.equal(stderrCause(stderr), "TypeError: x is not a function");
  });

  it("node's bad option, bun's missing script, a Python traceback's last line", () => {
    assert.equal(stderrCause("/usr/bin/node: bad option: --mode\n"), "/usr/bin/node: bad option: --mode");
    assert.equal(stderrCause('error: Script not found "rpc"\n'), 'error: Script not found "rpc"');
    const python = 'Traceback (most recent call last):\n  File "x.py", line 3, in <module>\n    main()\nValueError: no config\n';
    assert.equal(stderrCause(python), "ValueError: no config");
  });

  it("without an error word: the last line; nothing: undefined; a long line is cut", () => {
    assert.equal(stderrCause("starting\nbye now\n"), "bye now");
    assert.equal(stderrCause("  \n\n"), undefined);
    assert.equal(stderrCause(`Error: ${"x".repeat(1000)}`)?.length, 300);
  });

  it("terminal escapes and control characters are not passed on", () => {
    assert.equal(stderrCause("\u001b[31mError: red\u001b[0m\u0007\n"), "Error: red");
  });
});
