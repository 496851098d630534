import { strict as assert } from "node:assert";
import { readdirSync, readFileSync } from "node:fs";
import { join, resolve } from "node:path";
import Ajv from "ajv";
import { commandSchemas, eventSchemas, checkInbound, checkOutbound, isCommandType, isEventType } from "./index";

const repo = resolve(__dirname, "../..");
/** The example frames of Pi's docs and the seed documents, as fixtures (their README says where from). */
const fixturesDir = join(repo, "test/fixtures/protocol-examples");

interface Example {
  source: string;
  line: number;
  value: Record<string, unknown>;
}

interface ExampleFile {
  from: string;
  examples: { line: number; frame: Record<string, unknown> }[];
}

function examples(): Example[] {
  return readdirSync(fixturesDir)
    .filter((f) => f.endsWith(".json"))
    .flatMap((file) => {
      const { examples } = JSON.parse(readFileSync(join(fixturesDir, file), "utf8")) as ExampleFile;
      return examples.map(({ line, frame }) => ({ source: file, line, value: frame }));
    });
}

function documentValidators() {
  const document = JSON.parse(readFileSync(join(repo, "dist/protocol.schema.json"), "utf8")) as object;
  const ajv = new Ajv({ strict: false, allErrors: true });
  ajv.addSchema(document, "protocol");
  return { inbound: ajv.getSchema("protocol#/$defs/AgentInbound")!, outbound: ajv.getSchema("protocol#/$defs/AgentOutbound")! };
}

describe("protocol examples of the seed documents and Pi's docs (test/fixtures/protocol-examples)", () => {
  let all: Example[] = [];
  before(() => {
    all = examples();
  });
  const where = (e: Example) => `${e.source}:${e.line} ${JSON.stringify(e.value).slice(0, 160)}`;

  it("finds the example frames of every area", () => {
    assert.ok(all.length >= 200, `only ${all.length} examples found`);
    const types = new Set(all.map((e) => String(e.value.type)));
    for (const t of ["response", "prompt", "extension_ui_request", "extension_ui_response", "host_tool_call", "host_tool_result", "message_update", "set_host_tools"]) {
      assert.ok(types.has(t), `no example of ${t}`);
    }
  });

  it("validates each with the runtime checks (inbound strictly, outbound tolerantly)", () => {
    for (const e of all) {
      const inbound = checkInbound(e.value);
      const outbound = checkOutbound(e.value);
      assert.ok(inbound.ok === true || outbound.ok === true, `${where(e)}\n in: ${JSON.stringify(inbound)}\n out: ${JSON.stringify(outbound)}`);
    }
  });

  it("validates each against dist/protocol.schema.json", () => {
    const { inbound, outbound } = documentValidators();
    for (const e of all) assert.ok(inbound(e.value) || outbound(e.value), where(e));
  });

  it("rejects each command example with a required field removed or of the wrong type", () => {
    const { inbound } = documentValidators();
    let mutations = 0;
    for (const e of all) {
      const type = String(e.value.type);
      if (!isCommandType(type)) continue;
      const required = (commandSchemas[type].required ?? []) as string[];
      for (const key of required) {
        const { [key]: _dropped, ...rest } = e.value;
        assert.equal(checkInbound(rest).ok, false, `without ${key}: ${where(e)}`);
        assert.equal(inbound(rest), false, `schema document accepted ${type} without ${key}`);
        const wrong = { ...e.value, [key]: key === "type" ? 7 : { wrong: true } };
        assert.equal(checkInbound(wrong).ok, false, `${key} of the wrong type: ${where(e)}`);
        mutations += 2;
      }
    }
    assert.ok(mutations > 50, `only ${mutations} mutations`);
  });

  it("rejects each event example with a required top-level field removed", () => {
    let mutations = 0;
    for (const e of all) {
      const type = String(e.value.type);
      if (!isEventType(type)) continue;
      for (const key of (eventSchemas[type].required ?? []) as string[]) {
        if (key === "type") continue;
        const { [key]: _dropped, ...rest } = e.value;
        assert.equal(checkOutbound(rest).ok, false, `without ${key}: ${where(e)}`);
        mutations++;
      }
    }
    assert.ok(mutations > 10, `only ${mutations} mutations`);
  });
});

describe("malformed frames", () => {
  const bad: [string, unknown][] = [
    ["an array", [{ type: "get_state" }]],
    ["a string", "get_state"],
    ["no type", { id: "1" }],
    ["an unknown command", { id: "1", type: "make_coffee" }],
    ["a prompt without message", { type: "prompt" }],
    ["a prompt with a numeric message", { type: "prompt", message: 1 }],
    ["a bad streamingBehavior", { type: "prompt", message: "x", streamingBehavior: "later" }],
    ["a bad thinking level", { type: "set_thinking_level", level: "extreme" }],
    ["a bad queue mode", { type: "set_steering_mode", mode: "some" }],
    ["an image without data", { type: "prompt", message: "x", images: [{ type: "image", mimeType: "image/png" }] }],
    ["a dialog answer without id", { type: "extension_ui_response", value: "x" }],
    ["a dialog answer with cancelled false", { type: "extension_ui_response", id: "1", cancelled: false }],
    ["a host tool result without content", { type: "host_tool_result", id: "h1", result: {} }],
    ["a numeric id", { id: 5, type: "get_state" }],
  ];
  for (const [name, frame] of bad) {
    it(`rejects ${name} with a readable error`, () => {
      const result = checkInbound(frame);
      assert.equal(result.ok, false);
      if (!result.ok) assert.match(result.error, /\w/);
    });
  }

  it("keeps the command and id of a rejected command for the error response", () => {
    const result = checkInbound({ id: "r9", type: "set_model", provider: 1 });
    assert.deepEqual(result.ok ? undefined : [result.id, result.type], ["r9", "set_model"]);
    assert.match(result.ok ? "" : result.error, /modelId/);
  });

  it("reports unknown outbound frame types without failing", () => {
    assert.equal(checkOutbound({ type: "something_new", x: 1 }).ok, "unknown");
    assert.equal(checkOutbound({ type: "extension_ui_request", id: "1", method: "select", title: "t" }).ok, false);
    assert.equal(checkOutbound({ type: "message_update" }).ok, false);
  });
});
