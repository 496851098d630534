/**
 * What the model reads of codemode: the tool's description and parameters, its line in the
 * system prompt's tool list and its rule, as pi 1.5.2 words them (test/peers/mcp-parity.test.ts
 * compares them with the real pi), less what this host does not offer (`models`). Also the
 * declaration of a tool as a script sees it (`describeTool()`, `ALL_TOOLS`).
 */
import { Type } from "@sinclair/typebox";

export const CODEMODE = "codemode";

export const codemodeSchema = Type.Object({
  code: Type.String({ description: "Raw JavaScript source." }),
});

export const CODEMODE_SNIPPET = "Run JavaScript that calls other tools";
export const CODEMODE_GUIDELINES: readonly string[] = [
  "Use codemode to batch independent tool calls (Promise.allSettled), chain them, or filter large output, instead of many separate calls.",
];

const INTRO = `Run JavaScript that calls other tools. The input is raw JavaScript (not JSON, no code fence), run as an async function body in a QuickJS sandbox: top-level \`await\` and \`return\` work. No Node, file system, network, or timers.
- \`await tools.<name>({ ...args })\` resolves to a string, or an object if the tool's declaration says so, and rejects with an Error on failure. A tool whose declaration returns an object resolves on failure too when it returned that object; check its fields. Calls still running when the script ends are cancelled.
- Optional first line: \`// @options: {"max_output_tokens": 10000, "timeout_ms": 60000}\``;

const GLOBALS = [
  "Globals:",
  "- `text(value)`, `image(dataUrlOrImageBlock)`, `console.log(...)`, and top-level `return` add output; `exit()` ends the script. With several text items, each starts with a `==> text N/M <==` line, and `console` lines follow the other output in one `<console_output>` block. `image()` also saves the image to a temp file and the result names its path.",
  "- `store(key, value)` and `load(key)` keep JSON values across codemode calls.",
  "- `ALL_TOOLS`, `await searchTools(query, { limit?, namespace? })`, `await describeTool(name)`, `await describeNamespace(name)`: find unlisted tools, such as MCP tools.",
].join("\n");

/**
 * The codemode tool's description. Pi lists here the callable tools that are neither declared nor
 * deferred; in this host every MCP tool a script reaches is one of those two, so none is listed
 * and the description does not change while servers connect.
 */
export const CODEMODE_DESCRIPTION = `${INTRO}\n\n${GLOBALS}`;

/** The identifier a script uses for a tool: characters not valid in a JavaScript identifier become `_`. */
export function scriptIdentifier(name: string): string {
  let id = "";
  for (const char of name) id += (id === "" ? /^[A-Za-z_$]$/ : /^[A-Za-z0-9_$]$/).test(char) ? char : "_";
  return id === "" ? "_" : id;
}

/**
 * What a declared tool's description gains while codemode is declared (Pi's words): how a script
 * calls it and what it resolves to. An MCP tool resolves to its CallToolResult, with the fields of
 * its output schema when it has one (`outputFields`, e.g. `{ temperature, humidity? }`); every
 * other tool of this host to its text.
 */
export function scriptCallNote(name: string, mcp: { outputFields?: string } | undefined): string {
  const resolves = mcp ? `\`{ content, structuredContent?${mcp.outputFields ? `: ${mcp.outputFields}` : ""}, isError? }\`` : "a string";
  return `\n\nCodemode: \`tools.${scriptIdentifier(name)}(args)\` resolves to ${resolves}.`;
}

/** An object schema's field names, `{ a, b? }` (`?` for those not required); undefined for other schemas. */
export function fieldNames(schema: unknown): string | undefined {
  if (typeof schema !== "object" || schema === null) return undefined;
  const { properties, required } = schema as { properties?: unknown; required?: unknown };
  if (typeof properties !== "object" || properties === null) return undefined;
  const must = new Set(Array.isArray(required) ? required : []);
  return `{ ${Object.keys(properties).map((k) => `${k}${must.has(k) ? "" : "?"}`).join(", ")} }`;
}

const noted = new WeakMap<object, object>();
const copies = new WeakSet<object>();

/** The tool with `note` after its description: one copy per tool, never noted twice. */
export function withNote<T extends { description: string }>(tool: T, note: string): T {
  if (copies.has(tool)) return tool;
  let copy = noted.get(tool) as T | undefined;
  if (!copy) {
    copy = Object.assign(Object.create(Object.getPrototypeOf(tool) as object | null) as T, tool, { description: `${tool.description}${note}` });
    noted.set(tool, copy);
    copies.add(copy);
  }
  return copy;
}

const IDENTIFIER = /^[A-Za-z_$][A-Za-z0-9_$]*$/;

/** A JSON schema as a TypeScript type, as far as a script needs it (objects, arrays, unions, enums). */
export function schemaType(schema: unknown, depth = 0): string {
  if (depth > 6 || typeof schema !== "object" || schema === null) return "unknown";
  const s = schema as Record<string, unknown>;
  if (s.const !== undefined) return JSON.stringify(s.const);
  if (Array.isArray(s.enum)) return s.enum.map((v) => JSON.stringify(v)).join(" | ") || "never";
  const variants = (Array.isArray(s.anyOf) ? s.anyOf : Array.isArray(s.oneOf) ? s.oneOf : undefined) as unknown[] | undefined;
  if (variants) return [...new Set(variants.map((v) => schemaType(v, depth + 1)))].join(" | ");
  const type = Array.isArray(s.type) ? (s.type as unknown[]) : [s.type];
  const parts = type.map((t) => {
    switch (t) {
      case "string":
      case "number":
      case "boolean":
      case "null":
        return t;
      case "integer":
        return "number";
      case "array":
        return `${wrap(schemaType(s.items, depth + 1))}[]`;
      case "object":
      case undefined:
        return s.properties && typeof s.properties === "object" ? objectType(s, depth) : t === "object" ? "Record<string, unknown>" : "unknown";
      default:
        return "unknown";
    }
  });
  return [...new Set(parts)].join(" | ");
}

const wrap = (type: string): string => (/[|&]/.test(type) ? `(${type})` : type);

function objectType(s: Record<string, unknown>, depth: number): string {
  const required = new Set(Array.isArray(s.required) ? (s.required as unknown[]) : []);
  const fields = Object.entries(s.properties as Record<string, unknown>).map(([key, value]) => {
    const name = IDENTIFIER.test(key) ? key : JSON.stringify(key);
    const description = typeof (value as { description?: unknown })?.description === "string" ? `/** ${String((value as { description: string }).description).replaceAll("*/", "*\\/").split("\n")[0]} */ ` : "";
    return `${description}${name}${required.has(key) ? "" : "?"}: ${schemaType(value, depth + 1)};`;
  });
  return fields.length === 0 ? "{}" : `{ ${fields.join(" ")} }`;
}

/**
 * A tool as `describeTool()`, `ALL_TOOLS` and codemode's description give it: its description, its
 * prompt guidelines (the system prompt has them only for declared tools), then its declaration.
 * The foreign text is made inert: it cannot close the fence nor open a section of its own.
 */
export function toolDeclaration(tool: { name: string; description: string; parameters: unknown }, output: string, guidelines: readonly string[] = []): string {
  const declaration = `declare const tools: { ${scriptIdentifier(tool.name)}(args: ${schemaType(tool.parameters)}): Promise<${output}>; };`;
  const bullets = guidelines.flatMap((g) => (g.trim() ? [`- ${g.trim()}`] : []));
  const about = bullets.length > 0 ? `${tool.description.trim()}\n\n${bullets.join("\n")}` : tool.description.trim();
  return `${inert(about)}\n\ncodemode tool declaration:\n\`\`\`ts\n${declaration}\n\`\`\``;
}

/**
 * Foreign text made inert inside codemode's description: it cannot open a section of its own (a
 * line starting `#`) nor close or open a code fence, so a tool's description cannot pass itself
 * off as another tool's declaration or a namespace.
 */
export function inert(text: string): string {
  return text.replace(/`{3,}/g, (fence) => "'".repeat(fence.length)).replace(/^([ \t]*)#/gm, "$1\\#");
}
