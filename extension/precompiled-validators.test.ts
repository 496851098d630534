// dist/client-validators.js (the extension's checks of what agents write, compiled at build time)
// must accept and reject exactly as the same schemas compiled at run time, with the same errors:
// every documented frame (test/fixtures/protocol-examples), and each with a field broken.
import { strict as assert } from "node:assert";
import * as fs from "node:fs";
import * as path from "node:path";
import type { ValidateFunction } from "ajv";
import { createAjv, validatorOptions } from "../shared/protocol/ajv";
import { poolSchemasByKey } from "../shared/protocol/pool";
import { outboundSchemas } from "../shared/protocol/validate";

const built = path.join(__dirname, "..", "dist", "client-validators.js");
const examplesDir = path.join(__dirname, "..", "test", "fixtures", "protocol-examples");

function keyOf(frame: Record<string, unknown>): string | undefined {
  if (frame.type === "response") return frame.success === false || typeof frame.command !== "string" ? "out:error" : `out:response:${frame.command}`;
  if (frame.type === "extension_ui_request") return `out:ui:${String(frame.method)}`;
  return `out:${String(frame.type)}`;
}

/** The frame, and copies with each top-level field given a value of the wrong type. */
function variants(frame: Record<string, unknown>): Record<string, unknown>[] {
  const out = [frame];
  for (const key of Object.keys(frame)) if (key !== "type") out.push({ ...frame, [key]: typeof frame[key] === "number" ? "x" : 7 });
  return out;
}

describe("extension: agents' frames checked by build-time validators", () => {
  it("accept and reject as run-time AJV does, with the same errors, on every documented frame", () => {
    assert.ok(fs.existsSync(built), `${built} is missing: run \`npm run build\``);
    const precompiled = (require(built) as { validators: Record<string, ValidateFunction> }).validators;
    // What agents write, and the control frames of a pool of hosts (extension/supervision/pool/).
    const schemas = { ...outboundSchemas(), ...poolSchemasByKey("out") };
    assert.deepEqual(Object.keys(precompiled).sort(), Object.keys(schemas).sort(), "one validator per schema");
    const ajv = createAjv(validatorOptions);
    const runtime = new Map<string, ValidateFunction>();
    let compared = 0;
    let rejected = 0;
    for (const file of fs.readdirSync(examplesDir).filter((f) => f.endsWith(".json"))) {
      const { examples } = JSON.parse(fs.readFileSync(path.join(examplesDir, file), "utf8")) as { examples: { frame: Record<string, unknown> }[] };
      for (const { frame } of examples) {
        const key = keyOf(frame);
        if (!key || !schemas[key]) continue;
        if (!runtime.has(key)) runtime.set(key, ajv.compile(schemas[key]));
        for (const value of variants(frame)) {
          const a: ValidateFunction = precompiled[key]!;
          const b: ValidateFunction = runtime.get(key)!;
          const ok: boolean = a(value);
          assert.equal(ok, b(value), `${file} ${key}: ${JSON.stringify(value).slice(0, 200)}`);
          assert.deepEqual(a.errors ?? null, b.errors ?? null);
          compared++;
          if (!ok) rejected++;
        }
      }
    }
    assert.ok(compared > 200 && rejected > 50, `compared ${compared}, rejected ${rejected}`);
  });
});
