/**
 * VS Code's language models for every agent (issue #35): the gateway's `vscode-lm` provider,
 * read at each agent start from `vscode.lm` (models that appear later are offered at the next start).
 */
import * as vscode from "vscode";
import type { LocalProvider } from "../gateway/agent-gateway";
import { settings } from "../settings";
import { vscodeLmProvider } from "./lm-provider";
import { hasLanguageModels, vscodeLmBackend } from "./vscode-lm-backend";
import { errorText } from "../../shared/error-text";

export async function vscodeLmProviders(log: vscode.LogOutputChannel): Promise<LocalProvider[]> {
  if (!settings.vscodeModels) return [];
  if (!hasLanguageModels()) {
    log.info(`This VS Code (${vscode.version}) offers no language models to extensions (vscode.lm, 1.90 or later): no vscode-lm provider`);
    return [];
  }
  try {
    const models = await vscodeLmBackend.models();
    log.info(`VS Code's language models offered to the agent (vscode-lm): ${models.map((m) => m.id).join(", ") || "none"}`);
    const provider = vscodeLmProvider(vscodeLmBackend, models);
    return provider ? [provider] : [];
  } catch (error) {
    log.warn(`VS Code's language models could not be listed: ${errorText(error)}`);
    return [];
  }
}
