// The editor host tools served to oh-my-pi (seed 001 host tools with loadMode "essential").
import * as assert from "node:assert/strict";
import * as vscode from "vscode";
import { toolNames } from "../../support/mock-llm";
import { callTool, useHostAgent, type HostAgent } from "./host-tools-support";

describe("host-tools: served to oh-my-pi", function () {
  this.timeout(120_000);
  let agent: HostAgent;

  before(async () => {
    agent = await useHostAgent("omp");
  });
  after(async () => agent?.dispose());

  it("offers the tools to omp's model and answers its calls", async () => {
    assert.equal(agent.client.capabilities.flavor, "omp");
    assert.equal(agent.client.capabilities.hostTools, true);
    const document = await vscode.workspace.openTextDocument(vscode.Uri.joinPath(vscode.workspace.workspaceFolders![0]!.uri, "src", "greet.ts"));
    const run = await callTool(agent, "editor_read", { path: "src/greet.ts" });
    const offered = toolNames(agent.llm.requests.at(-2)!);
    for (const name of ["editor_read", "editor_edit", "editor_diagnostics", "editor_definition"]) assert.ok(offered.includes(name), offered.join(", "));
    assert.equal(run.isError, false, run.text);
    const meta = JSON.parse(run.text.split("\n", 1)[0]!) as { source: string; version: number };
    assert.deepEqual(meta.source, "editor");
    assert.equal(meta.version, document.version);
    assert.match(run.text, /export function greet/);
  });
});
