// A scripted chat model and one tool, registered through VS Code's own APIs (test only).
// The model answers from the last message: a tool result is echoed back ("The tool said: …"),
// "CALL <tool> <json>" makes it call that tool, anything else gets a three-part streamed answer.
// What it was asked is kept in `exports.requests` for the suite; the tool's calls in `exports.lookups`.
const vscode = require("vscode");

const requests = [];
const lookups = [];

function partOf(part) {
  if (part instanceof vscode.LanguageModelTextPart) return { type: "text", text: part.value };
  if (part instanceof vscode.LanguageModelToolCallPart) return { type: "tool_call", id: part.callId, name: part.name, input: part.input };
  if (part instanceof vscode.LanguageModelToolResultPart) {
    return { type: "tool_result", callId: part.callId, text: part.content.map((c) => (c instanceof vscode.LanguageModelTextPart ? c.value : "")).join("") };
  }
  return { type: "other" };
}

const delay = (ms) => new Promise((resolve) => setTimeout(resolve, ms));

function activate(context) {
  const registerProvider = vscode.lm && vscode.lm.registerLanguageModelChatProvider;
  if (typeof registerProvider === "function") {
    context.subscriptions.push(
      registerProvider("pi-test", {
        provideLanguageModelChatInformation: () => [
          { id: "pi-test-model", name: "Pi Test Model", family: "pi-test", version: "1", maxInputTokens: 100000, maxOutputTokens: 4096, capabilities: { toolCalling: true, imageInput: false } },
        ],
        async provideLanguageModelChatResponse(model, messages, options, progress, token) {
          const asked = { messages: messages.map((m) => ({ role: m.role, parts: m.content.map(partOf) })), tools: (options.tools || []).map((t) => t.name) };
          requests.push(asked);
          const last = asked.messages[asked.messages.length - 1];
          const result = last.parts.find((p) => p.type === "tool_result");
          if (result) {
            progress.report(new vscode.LanguageModelTextPart("The tool said: "));
            progress.report(new vscode.LanguageModelTextPart(result.text));
            return;
          }
          const text = last.parts.filter((p) => p.type === "text").map((p) => p.text).join("\n");
          const call = /CALL (\S+) (\{.*\})/.exec(text);
          if (call) {
            progress.report(new vscode.LanguageModelTextPart("Calling the tool."));
            progress.report(new vscode.LanguageModelToolCallPart(`call_fixture_${requests.length}`, call[1], JSON.parse(call[2])));
            return;
          }
          for (const word of ["Hello ", "from ", "the test model."]) {
            if (token.isCancellationRequested) return;
            progress.report(new vscode.LanguageModelTextPart(word));
            await delay(10);
          }
        },
        provideTokenCount: async (model, text) => Math.ceil((typeof text === "string" ? text : JSON.stringify(text.content)).length / 4),
      }),
    );
  }
  if (vscode.lm && typeof vscode.lm.registerTool === "function") {
    context.subscriptions.push(
      vscode.lm.registerTool("pi_test_lookup", {
        async invoke(options) {
          lookups.push(options.input);
          return new vscode.LanguageModelToolResult([new vscode.LanguageModelTextPart(`${options.input.word} means forty-two`)]);
        },
      }),
    );
  }
  return { requests, lookups, providerRegistered: typeof registerProvider === "function" };
}

module.exports = { activate };
