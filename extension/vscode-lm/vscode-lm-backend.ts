/**
 * The LmBackend over `vscode.lm`, each API detected at run time (engines.vscode stays ^1.100.0):
 * `selectChatModels`/`sendRequest` (1.90+), images through `LanguageModelDataPart` where this
 * VS Code has it (1.105+; before, a request with an image is refused, saying why). The first
 * request to a model shows VS Code's own consent dialog (with `justification`); a "no" is
 * LanguageModelError NoPermissions, answered 403 by the endpoint.
 */
import * as vscode from "vscode";
import { LmError, type LmBackend, type LmChatRequest, type LmModelInfo, type LmPart, type LmStreamPart } from "./lm-backend";
import { errorText } from "../../shared/error-text";

/** What an older or newer vscode module may have or lack (the typings are 1.100's). */
interface LmRuntime {
  lm?: { selectChatModels?: typeof vscode.lm.selectChatModels };
  LanguageModelDataPart?: { image(data: Uint8Array, mimeType: string): unknown };
}
const runtime = vscode as unknown as LmRuntime;

/** Whether this VS Code offers its language models to extensions at all. */
export function hasLanguageModels(): boolean {
  return typeof runtime.lm?.selectChatModels === "function";
}

const justification = "Pi Agent sends the requests of your Pi agent to this model.";

/** `capabilities` is on LanguageModelChat from 1.104 (names per version; absent before). */
function takesImages(model: vscode.LanguageModelChat): boolean {
  const caps = (model as unknown as { capabilities?: { supportsImageToInput?: boolean; imageInput?: boolean } }).capabilities;
  return caps?.supportsImageToInput === true || caps?.imageInput === true;
}

function toLmError(error: unknown): LmError {
  if (error instanceof LmError) return error;
  if (error instanceof vscode.CancellationError) return new LmError("Cancelled", "The request was cancelled.");
  const message = errorText(error);
  if (error instanceof vscode.LanguageModelError) {
    const code = error.code === "NoPermissions" || error.code === "Blocked" || error.code === "NotFound" ? error.code : "Unknown";
    const said = code === "NoPermissions" ? `VS Code did not allow Pi Agent to use this model (${message}). Allow it when VS Code asks, or under Manage Language Model Access.` : message;
    return new LmError(code, said);
  }
  return new LmError("Unknown", message);
}

function dataPart(data: Uint8Array, mimeType: string): unknown {
  const make = runtime.LanguageModelDataPart;
  if (!make) throw new LmError("BadRequest", `This VS Code (${vscode.version}) cannot send images to a language model (it needs 1.105 or later).`);
  return make.image(data, mimeType);
}

type Content = vscode.LanguageModelTextPart | vscode.LanguageModelToolCallPart | vscode.LanguageModelToolResultPart;

function toContent(part: LmPart): Content {
  switch (part.type) {
    case "text":
      return new vscode.LanguageModelTextPart(part.text);
    case "image":
      return dataPart(part.data, part.mimeType) as vscode.LanguageModelTextPart;
    case "tool_call":
      return new vscode.LanguageModelToolCallPart(part.id, part.name, part.input);
    case "tool_result":
      return new vscode.LanguageModelToolResultPart(
        part.callId,
        part.content.map((c) => (c.type === "text" ? new vscode.LanguageModelTextPart(c.text) : dataPart(c.data, c.mimeType))),
      );
  }
}

async function modelById(id: string): Promise<vscode.LanguageModelChat> {
  if (!hasLanguageModels()) throw new LmError("NotFound", `This VS Code (${vscode.version}) offers no language models to extensions.`);
  const [model] = await vscode.lm.selectChatModels({ id });
  if (!model) throw new LmError("NotFound", `VS Code has no language model "${id}" now.`);
  return model;
}

function tokenFor(signal: AbortSignal): vscode.CancellationTokenSource {
  const source = new vscode.CancellationTokenSource();
  if (signal.aborted) source.cancel();
  else signal.addEventListener("abort", () => source.cancel(), { once: true });
  return source;
}

async function* streamParts(response: vscode.LanguageModelChatResponse, source: vscode.CancellationTokenSource): AsyncIterable<LmStreamPart> {
  try {
    for await (const part of response.stream) {
      if (part instanceof vscode.LanguageModelTextPart) yield { type: "text", text: part.value };
      else if (part instanceof vscode.LanguageModelToolCallPart) yield { type: "tool_call", id: part.callId, name: part.name, input: part.input };
      // Other parts (thinking, data) from newer VS Code: not part of chat completions' answer.
    }
  } catch (error) {
    throw toLmError(error);
  } finally {
    source.dispose();
  }
}

export const vscodeLmBackend: LmBackend = {
  async models(): Promise<LmModelInfo[]> {
    if (!hasLanguageModels()) return [];
    const models = await vscode.lm.selectChatModels();
    return models.map((m) => ({ id: m.id, name: m.name, vendor: m.vendor, family: m.family, maxInputTokens: m.maxInputTokens, imageInput: takesImages(m) }));
  },

  async chat(modelId: string, request: LmChatRequest, signal: AbortSignal): Promise<AsyncIterable<LmStreamPart>> {
    const model = await modelById(modelId);
    const messages = request.messages.map((m) => {
      const content = m.parts.map(toContent);
      return m.role === "user"
        ? vscode.LanguageModelChatMessage.User(content as (vscode.LanguageModelTextPart | vscode.LanguageModelToolResultPart)[])
        : vscode.LanguageModelChatMessage.Assistant(content as (vscode.LanguageModelTextPart | vscode.LanguageModelToolCallPart)[]);
    });
    const options: vscode.LanguageModelChatRequestOptions = {
      justification,
      ...(request.tools.length
        ? {
            tools: request.tools.map((t) => ({ name: t.name, description: t.description, ...(t.inputSchema ? { inputSchema: t.inputSchema } : {}) })),
            toolMode: request.toolsRequired ? vscode.LanguageModelChatToolMode.Required : vscode.LanguageModelChatToolMode.Auto,
          }
        : {}),
    };
    const source = tokenFor(signal);
    try {
      const response = await model.sendRequest(messages, options, source.token);
      return streamParts(response, source);
    } catch (error) {
      source.dispose();
      throw toLmError(error);
    }
  },

  async countTokens(modelId: string, texts: readonly string[], signal: AbortSignal): Promise<number> {
    const model = await modelById(modelId);
    const source = tokenFor(signal);
    try {
      const counts = await Promise.all(texts.map((text) => model.countTokens(text, source.token)));
      return counts.reduce((a, b) => a + b, 0);
    } finally {
      source.dispose();
    }
  },
};
