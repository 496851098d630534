import * as assert from "node:assert/strict";
import { builtinCommands, modeNamed, parseBuiltin, withBuiltins } from "./builtin-commands";

const agent = (name: string) => ({ name, source: "extension" });

describe("built-in slash commands", () => {
  it("runs a built-in typed whole, with what follows it as its argument", () => {
    assert.deepEqual(parseBuiltin("/mode plan", []), { name: "mode", argument: "plan" });
    assert.deepEqual(parseBuiltin("  /compact keep the API notes\nand the tests ", []), { name: "compact", argument: "keep the API notes\nand the tests" });
    assert.deepEqual(parseBuiltin("/new", []), { name: "new", argument: "" });
  });

  it("leaves everything else to the agent: its own command of the same name, unknown words, text that only mentions a command", () => {
    assert.equal(parseBuiltin("/model", [agent("model")]), undefined);
    assert.equal(parseBuiltin("/models", []), undefined);
    assert.equal(parseBuiltin("please /new", []), undefined);
    assert.equal(parseBuiltin("/", []), undefined);
    assert.equal(parseBuiltin("/constructor", []), undefined);
    assert.equal(parseBuiltin("/__proto__ x", []), undefined);
  });

  it("lists the built-ins the agent does not shadow, then the agent's", () => {
    const listed = withBuiltins([agent("model"), agent("deploy")]).map((c) => c.name);
    assert.deepEqual(listed, [...builtinCommands.map((c) => c.name).filter((n) => n !== "model"), "model", "deploy"]);
  });

  it("names modes in words, never from the object's prototype", () => {
    assert.equal(modeNamed("plan"), "plan");
    assert.equal(modeNamed("Edits"), "acceptEdits");
    assert.equal(modeNamed("Full auto"), "auto");
    assert.equal(modeNamed("auto-accept edits"), "acceptEdits");
    assert.equal(modeNamed("constructor"), undefined);
    assert.equal(modeNamed("toString"), undefined);
  });
});
