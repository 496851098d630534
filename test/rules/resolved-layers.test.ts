// The layer rules on resolved paths (.dependency-cruiser.cjs): each case puts one file holding one
// kind of import (static, type re-export, `import()`, `require()`, a path that wanders out and
// back in) into a small copy of the folders, runs dependency-cruiser with the project's config as
// `npm run lint` does, and reads which rule refused it. The spellings that slipped past the
// import-string rules (#34) are among them.
import { strict as assert } from "node:assert";
import { execFile } from "node:child_process";
import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import * as path from "node:path";
import { promisify } from "node:util";

const root = path.resolve(__dirname, "..", "..");
const depcruise = path.join(root, "node_modules", ".bin", "depcruise");

/** The files every case may import (each layer's one module). */
const targets = ["agent-host/ai/types.ts", "agent-host/agent/agent.ts", "agent-host/tools/tool.ts", "agent-host/session/persistence/session-manager.ts", "agent-host/rpc/cli.ts", "extension/main.ts", "webview/main.ts", "shared/rpc/index.ts", "shared/node/files.ts"];

interface Violation {
  rule: { name: string };
  from: string;
  to: string;
}

async function violations(file: string, code: string): Promise<string[]> {
  const dir = mkdtempSync(path.join(tmpdir(), "layers-"));
  try {
    for (const target of [...targets, file]) {
      mkdirSync(path.dirname(path.join(dir, target)), { recursive: true });
      writeFileSync(path.join(dir, target), target === file ? code : "export const x = 1;\n");
    }
    writeFileSync(path.join(dir, "tsconfig.json"), JSON.stringify({ compilerOptions: { module: "commonjs", target: "ES2022", strict: true } }));
    const run = await promisify(execFile)(depcruise, ["--config", path.join(root, ".dependency-cruiser.cjs"), "--output-type", "json", "shared", "agent-host", "extension", "webview"], { cwd: dir, maxBuffer: 64 * 1024 * 1024 }).catch((error: { stdout?: string }) => ({ stdout: error.stdout ?? "" }));
    const summary = (JSON.parse(run.stdout) as { summary: { violations: Violation[] } }).summary;
    return summary.violations.filter((v) => v.from === file).map((v) => v.rule.name);
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }
}

describe("layer rules on resolved paths (.dependency-cruiser.cjs)", function () {
  this.timeout(120_000);

  // [file, code, the rule that refuses it (undefined: allowed)]
  const cases: [string, string, string | undefined][] = [
    ["webview/x.ts", 'export type { x } from "./../agent-host/ai/types";', "webview-only-through-its-channel"],
    ["agent-host/ai/openai/x.ts", 'import { x } from "../../../agent-host/session/persistence/session-manager";\nexport const y = x;', "agent-host-ai-imports-earlier-layers"],
    ["agent-host/tools/x.ts", 'export async function f() { return import("../session/persistence/session-manager"); }', "agent-host-tools-imports-earlier-layers"],
    ["agent-host/agent/x.ts", 'export const m: unknown = require("../rpc/cli");', "agent-host-agent-imports-earlier-layers"],
    ["extension/x.ts", 'import "../agent-host/agent/agent";', "extension-reaches-agents-over-the-wire"],
    ["extension/chat/x.ts", 'export async function f() { return import("../../webview/main"); }', "extension-reaches-agents-over-the-wire"],
    ["shared/x.ts", 'export const m: unknown = require("../extension/main");', "shared-imports-no-other-folder"],
    ["shared/rpc/x.ts", 'import { spawn } from "node:child_process";\nexport const s = spawn;', "shared-is-platform-free"],
    ["shared/rpc/y.ts", 'export const fs: unknown = require("fs");', "shared-is-platform-free"],
    ["webview/items/x.ts", 'import * as vscode from "vscode";\nexport const v = vscode;', "only-extension-imports-vscode"],
    ["agent-host/rpc/x.ts", 'import "../no-such-layer/thing";', "no-unresolved-relative"],
    ["agent-host/rpc/x.ts", 'import "../session/persistence/session-manager";\nimport "../../shared/rpc";\nimport "node:fs";', undefined],
    ["agent-host/tools/x.ts", 'import "../agent/agent";\nimport "../ai/types";\nexport async function f() { return import("../../shared/rpc"); }', undefined],
    ["extension/x.ts", 'import * as vscode from "vscode";\nimport "../shared/rpc";\nimport "node:fs";\nexport const v = vscode;', undefined],
    ["shared/node/x.ts", 'import "node:fs";\nimport "../rpc";', undefined],
  ];
  for (const [file, code, rule] of cases) {
    it(`${rule ? `refuses (${rule})` : "allows"} in ${file}: ${code.split("\n")[0]}`, async () => {
      assert.deepEqual(await violations(file, code), rule ? [rule] : []);
    });
  }

  it("finds no violation in the tree", async () => {
    const run = await promisify(execFile)(depcruise, ["--config", ".dependency-cruiser.cjs", "--output-type", "err", "shared", "agent-host", "extension", "webview"], { cwd: root, maxBuffer: 64 * 1024 * 1024 }).catch((error: { stdout?: string; code?: number }) => ({ stdout: `${error.stdout ?? ""} (exit ${error.code ?? "?"})` }));
    assert.match(run.stdout, /no dependency violations found/, run.stdout);
  });
});
