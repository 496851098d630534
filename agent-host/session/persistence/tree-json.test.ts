import * as assert from "node:assert/strict";
import { EncodedJson, encodeFrame, stringifyDeep } from "../../../shared/jsonl";
import type { SessionEntry } from "../../../shared/session-format/schema";
import type { TreeNode } from "./session-manager";
import { encodeTree } from "./tree-json";

const entry = (i: number): SessionEntry =>
  ({ type: "message", id: `e${i}`, parentId: i ? `e${i - 1}` : null, timestamp: "2026-01-01T00:00:00.000Z", message: { role: "user", content: [{ type: "text", text: `t "${i}"\n` }], timestamp: i } }) as SessionEntry;

/** A random tree: each new node hangs under a random earlier one; some carry labels. */
function randomTree(count: number, seed: number): TreeNode[] {
  let s = seed;
  const random = () => ((s = (s * 1103515245 + 12345) % 2 ** 31) / 2 ** 31);
  const roots: TreeNode[] = [];
  const all: TreeNode[] = [];
  for (let i = 0; i < count; i++) {
    const node: TreeNode = { entry: entry(i), children: [] };
    if (random() < 0.2) node.label = `label ${i}`;
    if (node.label && random() < 0.5) node.labelTimestamp = "2026-01-02T00:00:00.000Z";
    const parent = i === 0 || random() < 0.05 ? undefined : all[Math.floor(random() * all.length)];
    (parent ? parent.children : roots).push(node);
    all.push(node);
  }
  return roots;
}

describe("encodeTree", () => {
  it("writes exactly what JSON.stringify writes, for random trees with labels and for none", () => {
    for (const seed of [1, 2, 3, 4, 5]) {
      const tree = randomTree(300, seed);
      assert.equal(encodeTree(tree), JSON.stringify(tree), `seed ${seed}`);
    }
    assert.equal(encodeTree([]), "[]");
  });

  it("encodes a chain too deep for JSON.stringify, as the non-recursive fallback does", () => {
    const root: TreeNode = { entry: entry(0), children: [] };
    let node = root;
    for (let i = 1; i < 20_000; i++) {
      const child: TreeNode = { entry: entry(i), children: [] };
      node.children.push(child);
      node = child;
    }
    assert.throws(() => JSON.stringify([root]), RangeError);
    assert.equal(encodeTree([root]), stringifyDeep([root]));
  });

  it("an encoded value is spliced into its frame as data", () => {
    const frame = { id: "1", type: "response", command: "get_tree", success: true, data: new EncodedJson(`{"tree":[],"leafId":null}`) };
    assert.deepEqual(JSON.parse(encodeFrame(frame)), { id: "1", type: "response", command: "get_tree", success: true, data: { tree: [], leafId: null } });
    assert.equal(encodeFrame({ data: new EncodedJson("[1]") }), `{"data":[1]}\n`);
  });
});
