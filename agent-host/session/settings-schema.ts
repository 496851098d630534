/**
 * The schema of pi's settings.json (pi 0.87.1's `Settings`, core/settings-manager.d.ts): the keys
 * this host uses with their types, every other key pi declares accepted as anything (the host
 * ignores it), and any key pi does not know dropped with a notice. Compiled at build time
 * (rpc/precompiled-schemas.ts); settings.test.ts checks the list against pi's declarations.
 */
import { Type, type TSchema } from "@sinclair/typebox";
import { lazySchema } from "../../shared/protocol/lazy-schema";
import { QueueMode, ThinkingLevel } from "../../shared/protocol/model";

const closed = { additionalProperties: false } as const;
const optional = <T extends TSchema>(schema: T) => Type.Optional(schema);
const anything = () => Type.Optional(Type.Unknown());

/** Keys pi declares that this host does not use: kept out of the notices, ignored. */
const piOnlyKeys = [
  "autocompleteMaxVisible", "branchSummary", "cacheWarming", "collapseChangelog", "defaultProjectTrust", "doubleEscapeAction",
  "editorPaddingX", "enableAnalytics", "enableInstallTelemetry", "enableSkillCommands", "extensions", "externalEditor",
  "fullscreenCopyOnSelect", "fullscreenExitOutput", "fullscreenScrollbar", "hideThinkingBlock", "images", "markdown",
  "modelThinkingLevels", "npmCommand", "outputPad", "packages", "prompts", "quietStartup", "shellCommandPrefix", "shellPath",
  "showCacheMissNotices", "showHardwareCursor", "skills", "terminal", "theme", "themes", "thinkingBudgets", "transport",
  "treeFilterMode", "tuiMode", "warnings", "websocketConnectTimeoutMs", "lastChangelogVersion", "trackingId",
] as const;

const count = () => Type.Optional(Type.Number({ minimum: 0 }));

export const SettingsFile = lazySchema(() =>
  Type.Object(
  {
    ...Object.fromEntries(piOnlyKeys.map((key) => [key, anything()])),
    defaultProvider: optional(Type.String()),
    defaultModel: optional(Type.String()),
    defaultThinkingLevel: optional(ThinkingLevel()),
    enabledModels: optional(Type.Array(Type.String())),
    steeringMode: optional(QueueMode()),
    followUpMode: optional(QueueMode()),
    defaultTools: optional(Type.Array(Type.String())),
    sessionDir: optional(Type.String()),
    compaction: optional(Type.Object({ enabled: optional(Type.Boolean()), reserveTokens: count(), keepRecentTokens: count(), modelOverrides: anything() }, closed)),
    retry: optional(Type.Object({ enabled: optional(Type.Boolean()), maxRetries: count(), baseDelayMs: count(), maxAgentDelayMs: count(), provider: anything() }, closed)),
    httpProxy: optional(Type.String()),
    httpIdleTimeoutMs: count(),
    // Pi 1.x (docs/settings.md#tools): how the codemode tool presents the other tools.
    codemode: optional(Type.Object({ mode: optional(Type.Union([Type.Literal("on"), Type.Literal("only")])), inlineBudget: count() }, closed)),
  },
  closed,
  ),
);

/** By the key its precompiled validator has (rpc/precompiled-schemas.ts). */
export const settingsSchemas = { "settings.json": SettingsFile };
