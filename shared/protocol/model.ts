import { Type } from "@sinclair/typebox";
import { JsonObject } from "./content";
import { lazySchema, type StaticOf } from "./lazy-schema";

export const ThinkingLevel = lazySchema(() => Type.Union([
  Type.Literal("off"),
  Type.Literal("minimal"),
  Type.Literal("low"),
  Type.Literal("medium"),
  Type.Literal("high"),
  Type.Literal("xhigh"),
  Type.Literal("max"),
]));
export type ThinkingLevel = StaticOf<typeof ThinkingLevel>;

export const QueueMode = lazySchema(() => Type.Union([Type.Literal("all"), Type.Literal("one-at-a-time")]));
export type QueueMode = StaticOf<typeof QueueMode>;

export const InterruptMode = lazySchema(() => Type.Union([Type.Literal("immediate"), Type.Literal("wait")]));
export type InterruptMode = StaticOf<typeof InterruptMode>;
/** Ours: how much the agent may do without asking (the editor's permission modes). */
export const PermissionMode = lazySchema(() => Type.Union([Type.Literal("ask"), Type.Literal("acceptEdits"), Type.Literal("plan"), Type.Literal("auto")]));
export type PermissionMode = StaticOf<typeof PermissionMode>;

/**
 * The bundled host's result of a call it refused by the user's choice (what the model reads): the
 * chat shows exactly these as "not run: …", not as a failure. Whole texts, compared whole, so that
 * a failing command cannot dress its output as one.
 */
export const planRefusal = (tool: string): string =>
  `Plan mode: the user asked for a plan first, so only read-only tools run and this ${tool} call was not run. Investigate, then propose the plan; the user approves it before anything changes.`;
export const userDenial = (tool: string): string => `The user denied this ${tool} call.`;

/** Why a call's error result means it never ran by the user's choice ("plan mode", "denied by you"), or undefined. */
export function refusalOf(tool: string, result: string): string | undefined {
  if (result === planRefusal(tool)) return "plan mode";
  if (result === userDenial(tool)) return "denied by you";
  return undefined;
}

/** How each permission mode is named and explained wherever it is shown (status bar, chat header, pickers). */
export const permissionModeInfo: Record<PermissionMode, { label: string; short: string; icon: string; detail: string }> = {
  ask: { label: "Ask", short: "Ask", icon: "shield", detail: "Asks before it runs a command or changes a file" },
  acceptEdits: { label: "Auto-accept edits", short: "Auto-edits", icon: "edit", detail: "File edits run without asking and can be reviewed after; commands still ask" },
  plan: { label: "Plan", short: "Plan", icon: "list-tree", detail: "Read-only: the agent investigates and proposes a plan, and changes nothing until you approve it" },
  auto: { label: "Full auto", short: "Full auto", icon: "warning", detail: "Every tool runs without asking, commands included" },
};
/** The modes a key cycles through (Full auto is only ever chosen from a menu, and confirmed). */
export const cycledPermissionModes: readonly PermissionMode[] = ["ask", "acceptEdits", "plan"];
export const permissionModes: readonly PermissionMode[] = ["ask", "acceptEdits", "plan", "auto"];

export const ModelCost = lazySchema(() => Type.Object({
  input: Type.Number({ description: "$ per million tokens" }),
  output: Type.Number(),
  cacheRead: Type.Number(),
  cacheWrite: Type.Number(),
}));

export const Model = lazySchema(() => Type.Object({
  id: Type.String(),
  name: Type.String(),
  api: Type.String(),
  provider: Type.String(),
  baseUrl: Type.String(),
  reasoning: Type.Boolean(),
  thinkingLevelMap: Type.Optional(JsonObject()),
  input: Type.Array(Type.Union([Type.Literal("text"), Type.Literal("image")])),
  cost: ModelCost(),
  contextWindow: Type.Number(),
  maxTokens: Type.Number(),
  headers: Type.Optional(Type.Record(Type.String(), Type.String())),
  compat: Type.Optional(JsonObject()),
}));
export type Model = StaticOf<typeof Model>;
