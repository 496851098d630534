// Settings have one reader, extension/settings.ts, and what it reads as the user's value alone
// (userValue: a program, a permission, the user's own records) is declared "scope": "machine" in
// package.json, so VS Code's Settings editor does not offer it in a folder either. Elsewhere the
// pi section is only written (a command saving the user's choice). Found by the #30 door review:
// extension/checkpoints/settings.ts read pi.checkpoints.* from any scope, so a repository could
// turn the Undo records off, or give a budget of "abc" (NaN) that pruned every record.
import { strict as assert } from "node:assert";
import * as fs from "node:fs";
import * as path from "node:path";
import ts from "typescript";

const root = path.resolve(__dirname, "..", "..");

function sourceFiles(dir: string): string[] {
  return fs.readdirSync(dir, { withFileTypes: true }).flatMap((entry) => {
    const full = path.join(dir, entry.name);
    if (entry.isDirectory()) return sourceFiles(full);
    return entry.name.endsWith(".ts") && !entry.name.endsWith(".test.ts") ? [full] : [];
  });
}

/** Each call in a file: its callee's text and its arguments' texts. */
function calls(file: string): { callee: string; args: string[]; line: number }[] {
  const source = ts.createSourceFile(file, fs.readFileSync(file, "utf8"), ts.ScriptTarget.Latest, true);
  const found: { callee: string; args: string[]; line: number }[] = [];
  const visit = (node: ts.Node): void => {
    if (ts.isCallExpression(node)) found.push({ callee: node.expression.getText(source).replace(/<.*>$/s, ""), args: node.arguments.map((a) => a.getText(source)), line: source.getLineAndCharacterOfPosition(node.getStart(source)).line + 1 });
    ts.forEachChild(node, visit);
  };
  visit(source);
  return found;
}

describe("settings: one reader, the user's own values declared machine-scoped", () => {
  const manifest = JSON.parse(fs.readFileSync(path.join(root, "package.json"), "utf8")) as { contributes: { configuration: { properties: Record<string, { scope?: string }> } } };
  const properties = manifest.contributes.configuration.properties;

  it("declares every setting read as the user's value alone with \"scope\": \"machine\" (or \"application\")", () => {
    const keys = calls(path.join(root, "extension/settings.ts"))
      .filter((c) => c.callee === "userValue")
      .map((c) => `pi.${JSON.parse(c.args[0]!) as string}`);
    assert.ok(keys.length >= 10, `userValue calls found: ${keys.join(", ")}`);
    const unscoped = keys.filter((key) => properties[key]?.scope !== "machine" && properties[key]?.scope !== "application");
    assert.deepEqual(unscoped, [], "read as the user's value but not declared machine-scoped");
  });

  it("reads the pi section nowhere but extension/settings.ts (other files only write the user's choice)", () => {
    const readers: string[] = [];
    for (const file of sourceFiles(path.join(root, "extension"))) {
      if (file.endsWith(path.join("extension", "settings.ts"))) continue;
      const text = fs.readFileSync(file, "utf8");
      if (!/getConfiguration\(\s*["']pi["']\s*\)/.test(text)) continue;
      const where = (call: { line: number }) => `${path.relative(root, file)}:${call.line}`;
      // The section read at once, kept in a variable, or behind a function: only .update on it.
      const held = [...text.matchAll(/const (\w+) = vscode\.workspace\.getConfiguration\(\s*["']pi["']\s*\)/g)].map((m) => `${m[1]!}`);
      const behind = [...text.matchAll(/const (\w+) = \(\) => vscode\.workspace\.getConfiguration\(\s*["']pi["']\s*\)/g)].map((m) => `${m[1]!}()`);
      for (const call of calls(file)) {
        const callee = call.callee.replace(/\s+/g, "");
        if (/getConfiguration\(["']pi["']\)\.(get|inspect|has)$/.test(callee) || [...held, ...behind].some((name) => callee === `${name}.get` || callee === `${name}.inspect` || callee === `${name}.has`)) readers.push(where(call));
      }
    }
    assert.deepEqual(readers, []);
  });
});
