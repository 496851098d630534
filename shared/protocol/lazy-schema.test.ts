import * as assert from "node:assert/strict";
import * as path from "node:path";
import { Type } from "@sinclair/typebox";
import { runInChild } from "../../test/support/run-in-child";
import { lazySchema, lazyTable } from "./lazy-schema";

/** Modules whose schemas the extension's bundle and the host's declare at load (issue 31: built on first use only). */
const schemaModules = ["protocol/index.ts", "webview-protocol.ts", "webview-channel.ts", "session-format/schema.ts", "checkpoints/schema.ts", "post-message-transport.ts"].map((file) =>
  path.join(__dirname, "..", file),
);

/** In a fresh process: how many TypeBox schemas `script` builds after requiring `schemaModules` (each Type.* call counted). */
function schemasBuilt(script = ""): number {
  const run = runInChild(
    [
      `const { Type } = require("@sinclair/typebox"); let built = 0;`,
      // Type's members are getters (a namespace object): each is replaced by a counting function.
      `for (const key of Object.keys(Type)) { const original = Type[key]; if (typeof original === "function") Object.defineProperty(Type, key, { value: (...args) => (built++, original(...args)) }); }`,
      `const loaded = ${JSON.stringify(schemaModules)}.map((file) => require(file));`,
      script,
      `console.log(built)`,
    ].join("\n"),
    60_000,
  );
  assert.equal(run.timedOut, false);
  assert.equal(run.lines.length, 1, run.stderr);
  return Number(run.lines[0]);
}

describe("protocol schemas: built on first use", function () {
  this.timeout(120_000);

  it("a lazy schema is built at its first call, once", () => {
    let builds = 0;
    const Point = lazySchema(() => (builds++, Type.Object({ x: Type.Number() })));
    assert.equal(builds, 0);
    assert.equal(Point(), Point());
    assert.equal(builds, 1);
  });

  it("a table knows its keys without building; an entry is built when read, once, and a builder two tables share builds one schema", () => {
    const built: string[] = [];
    const shared = () => (built.push("shared"), Type.String());
    const first = lazyTable({ a: () => (built.push("a"), Type.Number()), shared });
    const second = lazyTable({ shared });
    assert.deepEqual(Object.keys(first), ["a", "shared"]);
    assert.equal(Object.hasOwn(first, "a"), true);
    assert.deepEqual(built, []);
    assert.equal(first.shared, second.shared);
    assert.equal(first.a, first.a);
    assert.deepEqual(built, ["shared", "a"]);
  });

  it("loading the protocol's, the webview's, the session file's and the checkpoints' modules builds no schema; checking a frame builds only what it needs", () => {
    assert.equal(schemasBuilt(), 0);
    // The first check of a frame builds its own schema (and the ones it holds), not the protocol's ~500.
    const forPrompt = schemasBuilt(`if (!loaded[0].checkInbound({ type: "prompt", message: "hi" }).ok) throw new Error("prompt refused");`);
    assert.ok(forPrompt > 0 && forPrompt < 40, `the prompt command's check built ${forPrompt} schemas`);
  });
});
