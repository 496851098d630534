// Refreshes a fixture of test/fixtures/protocol-examples/ from a protocol document (a Pi doc,
// a seed): every JSON object in it with a string `type` that is a frame, with its line.
//   npx tsx scripts/extract-protocol-examples.ts <name> "<where it comes from>" <document>
// e.g. pi-0.87.1-rpc "docs/rpc.md of @earendil-works/pi-coding-agent 0.87.1" \
//      test/peers/pi-0.87.1/node_modules/@earendil-works/pi-coding-agent/docs/rpc.md
import { readFileSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { extractJsonObjects } from "../shared/protocol/doc-examples";

/** Objects in the docs that carry a `type` but are not frames: content blocks, JSON Schema, JSON mode's header. */
const notFrames = new Set(["image", "text", "string", "object", "session"]);

const [name, from, document] = process.argv.slice(2);
if (!name || !from || !document) {
  console.error('usage: npx tsx scripts/extract-protocol-examples.ts <name> "<where it comes from>" <document>');
  process.exit(2);
}
const examples = extractJsonObjects(readFileSync(document, "utf8"), name).filter(
  (e) => typeof e.value.type === "string" && !notFrames.has(e.value.type),
);
const lines = examples.map((e) => `    { "line": ${e.line}, "frame": ${JSON.stringify(e.value)} }`);
const out = join(__dirname, "..", "test", "fixtures", "protocol-examples", `${name}.json`);
writeFileSync(out, `{\n  "from": ${JSON.stringify(from)},\n  "examples": [\n${lines.join(",\n")}\n  ]\n}\n`);
console.log(`${examples.length} frames -> ${out}`);
