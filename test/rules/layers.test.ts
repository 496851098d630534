// The layer rules of eslint.config.mjs refuse what the README's Layout table forbids: each case
// lints a one-line file placed in a folder, through ESLint itself with the project's config.
import { strict as assert } from "node:assert";
import * as path from "node:path";
import { ESLint } from "eslint";

const root = path.resolve(__dirname, "..", "..");

describe("layer rules (eslint.config.mjs)", function () {
  this.timeout(60_000);
  // The files linted here do not exist: without type information (the promise rules need it).
  const eslint = new ESLint({
    cwd: root,
    overrideConfig: {
      languageOptions: { parserOptions: { projectService: false } },
      rules: { "@typescript-eslint/no-floating-promises": "off", "@typescript-eslint/no-misused-promises": "off" },
    },
  });

  async function refused(file: string, code: string): Promise<boolean> {
    const [result] = await eslint.lintText(code, { filePath: path.join(root, file) });
    return (result?.messages ?? []).some((m) => m.ruleId === "no-restricted-imports");
  }

  // [file, import, refused]
  const cases: [string, string, boolean][] = [
    ["agent-host/ai/x.ts", 'import "../agent/agent";', true],
    ["agent-host/tools/x.ts", 'import { SessionManager } from "../session/persistence/session-manager";', true],
    ["agent-host/session/context/x.ts", 'import "../../rpc/cli";', true],
    ["agent-host/rpc/x.ts", 'import * as vscode from "vscode";', true],
    ["agent-host/agent/x.ts", 'import "../../extension/main";', true],
    ["extension/chat/x.ts", 'import { Agent } from "../../agent-host/agent/agent";', true],
    ["extension/x.ts", 'import "../webview/main";', true],
    ["webview/x.ts", 'import * as fs from "node:fs";', true],
    ["webview/items/x.ts", 'import * as vscode from "vscode";', true],
    ["shared/rpc/x.ts", 'import { spawn } from "node:child_process";', true],
    ["shared/x.ts", 'import "../extension/settings";', true],
    ["shared/node/x.ts", 'import * as vscode from "vscode";', true],
    ["agent-host/rpc/x.ts", 'import "../session/persistence/session-manager"; import "../../shared/rpc";', false],
    ["agent-host/tools/x.ts", 'import "../agent/tool"; import "../ai/types"; import "../../shared/protocol";', false],
    ["extension/x.ts", 'import * as vscode from "vscode"; import "../shared/rpc"; import "node:fs";', false],
    ["webview/x.ts", 'import "../shared/webview-protocol";', false],
    ["shared/node/x.ts", 'import "node:fs"; import "../rpc";', false],
  ];
  for (const [file, code, expected] of cases) {
    it(`${expected ? "refuses" : "allows"} in ${file}: ${code}`, async () => assert.equal(await refused(file, code), expected));
  }

  // Not a layer rule, the same way of checking it: a time limit garbage collection can lose (ci's MCP OAuth hang).
  it("refuses a timeout signal inside AbortSignal.any anywhere; allows one alone", async () => {
    const lost = async (code: string) => {
      const [result] = await eslint.lintText(code, { filePath: path.join(root, "agent-host/mcp/x.ts") });
      return (result?.messages ?? []).some((m) => m.ruleId === "no-restricted-syntax");
    };
    assert.equal(await lost("export const s = (o: AbortSignal) => AbortSignal.any([o, AbortSignal.timeout(1000)]);"), true);
    assert.equal(await lost("export const s = AbortSignal.timeout(1000);"), false);
  });
});
