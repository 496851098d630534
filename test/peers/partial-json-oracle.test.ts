/**
 * Our incremental partial-JSON parser (shared/rpc/partial-json.ts) against the oracle: Pi's own
 * parseStreamingJson (pi-ai, over the `partial-json` package), on every prefix of tool-call
 * arguments as models stream them. What a Pi client or extension sees of a call's arguments while
 * it streams must be what Pi shows.
 */
import { strict as assert } from "node:assert";
import * as path from "node:path";
import { pathToFileURL } from "node:url";
import { PartialJsonParser } from "../../shared/rpc/partial-json";
import { assertPeerInstalled, peerDir } from "../support/peers";

type Oracle = (text: string) => unknown;

const documents: Record<string, unknown> = {
  write: { path: "src/app.ts", content: 'import x from "y";\n\tconst s = "a\\\\b" + `c`; // é ü 😀 \u2028 \u0001\n' },
  edit: { path: "a.md", edits: [{ oldText: "one\n", newText: "two\n" }, { oldText: "", newText: "{[\"]}" }] },
  numbers: { offset: 12, limit: -3, ratio: 0.25, big: 1.5e21, small: -2e-7, zero: 0 },
  literals: { a: true, b: false, c: null, d: [true, null, false], e: {} },
  nested: { a: [[1, [2, [3, {}]]], { b: { c: [] } }], "key with \"quotes\"": "v", "": "empty key" },
  indentation: { path: "py.py", content: "def f():  \n    return 1    \n\n  \u00a0 x \u3000 " },
  bash: { command: "grep -rn \"foo\\|bar\" . | head -n 5", timeout: 30 },
};

describe("partial JSON: ours against Pi's parseStreamingJson on every prefix", function () {
  let oracle: Oracle;

  before(async () => {
    assertPeerInstalled("pi");
    const file = path.join(peerDir("pi"), "node_modules/@earendil-works/pi-ai/dist/utils/json-parse.js");
    const module = (await import(pathToFileURL(file).href)) as { parseStreamingJson: Oracle };
    oracle = module.parseStreamingJson;
  });

  for (const [name, doc] of Object.entries(documents)) {
    for (const [layout, text] of [["compact", JSON.stringify(doc)], ["indented", JSON.stringify(doc, null, 2)]] as const) {
      it(`${name} (${layout}): the value after each character equals Pi's parse of that prefix`, () => {
        const parser = new PartialJsonParser();
        for (let i = 1; i <= text.length; i++) {
          const value = parser.push(text[i - 1]!).value();
          // A fresh copy: ours is updated in place.
          assert.deepEqual(structuredClone(value), oracle(text.slice(0, i)), `prefix ${JSON.stringify(text.slice(0, i))}`);
        }
        assert.deepEqual(parser.value(), doc);
      });
    }
  }

  it("the same in 20-character deltas (as the benchmark streams) over a long write", () => {
    const text = JSON.stringify({ path: "big.ts", content: Array.from({ length: 400 }, (_, i) => `line ${i}: "q" \\ \t é\n`).join("") });
    const parser = new PartialJsonParser();
    for (let i = 0; i < text.length; i += 20) {
      const value = parser.push(text.slice(i, i + 20)).value();
      assert.deepEqual(structuredClone(value), oracle(text.slice(0, i + 20)));
    }
  });
});
