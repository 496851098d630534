/**
 * VS Code's models as one provider of the model gateway: its name, the token's variable, the
 * models.json provider entry each agent registers (pi and omp through dist/pi-gateway.mjs's
 * registerProvider, our host from PI_MODEL_GATEWAY) and the endpoint that serves it. Plain data.
 */
import type { LocalProvider } from "../gateway/agent-gateway";
import type { LmBackend, LmModelInfo } from "./lm-backend";
import { createLmEndpoint } from "./lm-endpoint";

export const VSCODE_LM_PROVIDER = "vscode-lm";
/** Holds the gateway's token for this provider (named in PI_SECRET_ENV: kept from tool processes). */
export const VSCODE_LM_TOKEN_ENV = "PI_VSCODE_LM_TOKEN";

/** VS Code does not say how long an answer may be; pi needs a figure (it is not sent on). */
const assumedMaxOutput = 16_384;

/** One models.json model per VS Code model, named so that the picker shows it as VS Code's. */
export function modelEntries(models: readonly LmModelInfo[]): Record<string, unknown>[] {
  return models.map((m) => ({
    id: m.id,
    name: `${m.name} (VS Code)`,
    reasoning: false,
    input: m.imageInput ? ["text", "image"] : ["text"],
    contextWindow: m.maxInputTokens > 0 ? m.maxInputTokens : 128_000,
    maxTokens: Math.min(assumedMaxOutput, m.maxInputTokens > 0 ? m.maxInputTokens : assumedMaxOutput),
    cost: { input: 0, output: 0, cacheRead: 0, cacheWrite: 0 },
  }));
}

export function vscodeLmProvider(backend: LmBackend, models: readonly LmModelInfo[]): LocalProvider | undefined {
  if (models.length === 0) return undefined;
  return {
    name: VSCODE_LM_PROVIDER,
    variable: VSCODE_LM_TOKEN_ENV,
    basePath: "/v1",
    handler: createLmEndpoint(backend),
    // Chat completions: the one API every agent we drive speaks; developer role and store off as for any compatible server.
    config: { name: "VS Code", api: "openai-completions", compat: { supportsDeveloperRole: false, supportsStore: false }, models: modelEntries(models) },
  };
}
