// A notification's message is rendered: VS Code turns `[label](command:…)` in it into a link that
// (a progress notification's title too: closable-notice.ts puts its own links there)
// runs the command when clicked (with arguments: `command:id?%7B…%7D` needs no space). So every
// value put into a show{Information,Warning,Error}Message text goes through notificationText (or a
// helper that calls it), unless it is ours (a number, a count, a fixed word): the table below.
// Found by the #30 door review: a model's markdown link `./x%5BFix%5D(command:…)` to a missing file
// came back as "Pi: ./x[Fix](command:…) does not exist." with a link that ran the command.
import { strict as assert } from "node:assert";
import * as fs from "node:fs";
import * as path from "node:path";
import ts from "typescript";

const root = path.resolve(__dirname, "..", "..");

/** Interpolations that are not foreign text (numbers, counts, fixed words) or were escaped where built, by file. */
const ours = new Set([
  "extension/acp/agent-picker.ts: agent.label", "extension/acp/agent-picker.ts: agent.command", "extension/acp/agent-picker.ts: agent.install", // our table of known agents
  "extension/commands/prompt-commands.ts: result.tokensBefore",
  "extension/commands/acp-sign-out-command.ts: name", 'extension/commands/acp-sign-out-command.ts: [report.message, report.detail].filter(Boolean).join(" ").replace(/\\n+/g, " ")', // escaped where built (notificationText; signOutReport's text())
  "extension/commands/context.ts: what", "extension/commands/session-commands.ts: what", // our own words for the action
  "extension/commands/session-commands.ts: lack", // acpResumeLack escapes the agent's name
  "extension/mcp/offer-vscode-mcp-command.ts: where", "extension/mcp/offer-vscode-mcp-command.ts: offered.length", 'extension/mcp/offer-vscode-mcp-command.ts: offered.length === 1 ? "" : "s"',
  "extension/vscode-tools/index.ts: vscode.version",
  'extension/commands/api-key-command.ts: key.trim() ? "saved" : "removed"',
  "extension/checkpoints/rewind.ts: files(result.failed.length)",
  "extension/review/review-actions.ts: name(found.path)", 'extension/review/review-actions.ts: unavailable.map((p) => name(p.file)).join(", ")', 'extension/review/review-actions.ts: failed.join(", ")', 'extension/review/review-actions.ts: said.join(" ")', // name() escapes
  "extension/review/review-actions.ts: whose", // escaped where built (notificationText of the session's name)
  "extension/review/review-actions.ts: left", // a count
  "extension/sessions/agent-session.ts: text", // a fixed notice
  "extension/sessions/attention.ts: message", // escaped where built
  "extension/ui/agent-notices.ts: seconds", "extension/ui/agent-notices.ts: untrustedMessage",
  "extension/ui/agent-notices.ts: text", // showDown's: escaped by its callers (checked here as this.showDown)
  "extension/ui/recovery-notice.ts: count",
]);
/** The calls that show a notification: VS Code's messages, and our closable notices (a progress notification's title, links rendered the same). */
const notifying = /^(vscode\.window\.show(Information|Warning|Error)Message|closableNotice|this\.showDown)$/;
/** Calls whose result is escaped already. */
const escaping = /^(notificationText|failure)\(/;

function sourceFiles(dir: string): string[] {
  return fs.readdirSync(dir, { withFileTypes: true }).flatMap((entry) => {
    const full = path.join(dir, entry.name);
    if (entry.isDirectory()) return sourceFiles(full);
    return entry.name.endsWith(".ts") && !entry.name.endsWith(".test.ts") ? [full] : [];
  });
}

/** Every interpolation in a notification's message that is neither escaped nor ours, as file:line: expression. */
function unescapedInterpolations(file: string): string[] {
  const source = ts.createSourceFile(file, fs.readFileSync(file, "utf8"), ts.ScriptTarget.Latest, true);
  const found: string[] = [];
  const visit = (node: ts.Node): void => {
    if (ts.isCallExpression(node) && notifying.test(node.expression.getText(source))) {
      const message = node.arguments[0];
      const check = (expr: ts.Expression): void => {
        if (ts.isStringLiteralLike(expr)) return;
        if (ts.isConditionalExpression(expr)) return [expr.whenTrue, expr.whenFalse].forEach(check);
        if (ts.isTemplateExpression(expr)) return expr.templateSpans.forEach((span) => check(span.expression));
        const text = expr.getText(source);
        if (!escaping.test(text) && !ours.has(`${path.relative(root, file)}: ${text}`)) {
          const { line } = source.getLineAndCharacterOfPosition(expr.getStart(source));
          found.push(`${path.relative(root, file)}:${line + 1}: ${text}`);
        }
      };
      if (message) check(message);
    }
    ts.forEachChild(node, visit);
  };
  visit(source);
  return found;
}

describe("notification text (extension/)", () => {
  it("puts no foreign value into a notification unescaped", () => {
    const found = sourceFiles(path.join(root, "extension")).flatMap(unescapedInterpolations);
    assert.deepEqual(found, []);
  });
});
