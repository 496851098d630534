import * as assert from "node:assert/strict";
import { matchCommands } from "./slash";

const command = (name: string) => ({ name, source: "built-in" });

describe("slash command completion", () => {
  it("puts the command typed whole first, so that Enter runs /mode rather than completing /model", () => {
    const commands = [command("model"), command("mode"), command("remodel")];
    assert.deepEqual(matchCommands("mode", commands).map((c) => c.name), ["mode", "model", "remodel"]);
    assert.deepEqual(matchCommands("mod", commands).map((c) => c.name), ["model", "mode", "remodel"]);
  });
});
