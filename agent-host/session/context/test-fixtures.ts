/**
 * Temp-dir fixtures for the context tests: a Pi user's agent dir, a HOME, and a project inside
 * a git repository, with skills, prompt templates and context files in every place pi looks
 * (including ones it must skip). Never touches the real HOME.
 */
import { mkdirSync, mkdtempSync, realpathSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { dirname, join } from "node:path";

export interface TempTree {
  root: string;
  write(relPath: string, text: string): string;
  path(relPath: string): string;
  remove(): void;
}

export function tempTree(prefix = "ctx-"): TempTree {
  const root = realpathSync(mkdtempSync(join(tmpdir(), prefix)));
  return {
    root,
    write(relPath, text) {
      const file = join(root, relPath);
      mkdirSync(dirname(file), { recursive: true });
      writeFileSync(file, text);
      return file;
    },
    path: (relPath) => join(root, relPath),
    remove: () => rmSync(root, { recursive: true, force: true }),
  };
}

export const skillMd = (fields: Record<string, string>, body = "Body."): string =>
  `---\n${Object.entries(fields).map(([k, v]) => `${k}: ${v}`).join("\n")}\n---\n${body}\n`;

/** Layout used by the parity test and several unit tests. Paths relative to the tree root. */
export const LAYOUT = {
  agentDir: "agent",
  home: "home",
  repo: "outer/repo",
  cwd: "outer/repo/pkg/app",
} as const;

export function writeUserSetup(t: TempTree): void {
  const a = LAYOUT.agentDir;
  t.write(`${a}/AGENTS.md`, "Global rules.\n");
  t.write(`${a}/skills/pdf-tools/SKILL.md`, skillMd(
    { name: "pdf-tools", description: ">\n  Extract text from PDFs.\n  Use when reading <PDF> & \"docs\"." },
    "# PDF tools\n\nRun `scripts/extract.sh` first.",
  ));
  t.write(`${a}/skills/pdf-tools/scripts/extract.sh`, "echo hi\n");
  t.write(`${a}/skills/dup/SKILL.md`, skillMd({ name: "dup", description: "user dup" }, "User dup."));
  t.write(`${a}/skills/Bad_Name/SKILL.md`, skillMd({ name: "Bad_Name", description: "bad name but loaded" }));
  t.write(`${a}/skills/nodesc/SKILL.md`, skillMd({ name: "nodesc" }));
  t.write(`${a}/skills/badyaml/SKILL.md`, skillMd({ name: "badyaml", description: "Use when: never" }));
  t.write(`${a}/skills/loose.md`, skillMd({ description: "a loose markdown skill" }, "Loose."));
  t.write(`${a}/skills/notes.md`, "Just notes, no frontmatter.\n");
  t.write(`${a}/skills/hidden/SKILL.md`, skillMd({ description: "only by command", "disable-model-invocation": "true" }, "Hidden."));
  t.write(`${a}/skills/group/inner/SKILL.md`, skillMd({ description: "nested skill" }, "Inner."));
  t.write(`${a}/skills/group/inner/deeper/SKILL.md`, skillMd({ description: "below a skill root" }));
  t.write(`${a}/skills/.gitignore`, "ignored/\n");
  t.write(`${a}/skills/ignored/SKILL.md`, skillMd({ description: "ignored by .gitignore" }));
  t.write(`${a}/skills/node_modules/dep/SKILL.md`, skillMd({ description: "in node_modules" }));
  t.write(`${a}/prompts/review.md`, "---\ndescription: Review the changes\nargument-hint: \"[focus]\"\n---\nReview $1, then ${@:2}. All: $@. Third: ${3:-none}. Args: $ARGUMENTS.\n");
  t.write(`${a}/prompts/nodesc.md`, "\n\nA first line that is definitely longer than sixty characters, to be cut\nsecond line\n");
  t.write(`${a}/prompts/dupt.md`, "---\ndescription: user dupt\n---\nUser dupt.");
  t.write(`${a}/prompts/sub/deep.md`, "not a template, below prompts/\n");
  t.write(`${a}/prompts/.hidden.md`, "dot file\n");
  t.write(`${LAYOUT.home}/.agents/skills/home-skill/SKILL.md`, skillMd({ description: "from ~/.agents" }));
}

export function writeProject(t: TempTree): void {
  const { repo, cwd } = LAYOUT;
  t.write(`${repo}/.git/HEAD`, "ref: refs/heads/main\n");
  t.write("outer/CLAUDE.md", "Outside the repo.\n");
  t.write(`${repo}/AGENTS.md`, "Repo agents.\n");
  t.write(`${repo}/CLAUDE.md`, "Repo claude (loses to AGENTS.md).\n");
  t.write(`${repo}/pkg/CLAUDE.md`, "Pkg claude.\n");
  t.write(`${cwd}/AGENTS.override.md`, "App override.\n");
  t.write(`${cwd}/AGENTS.md`, "App agents (loses to the override).\n");
  t.write(`${cwd}/.pi/skills/dup/SKILL.md`, skillMd({ name: "dup", description: "project dup" }, "Project dup."));
  t.write(`${cwd}/.pi/skills/proj-skill/SKILL.md`, skillMd({ description: "project skill" }));
  t.write(`${cwd}/.pi/prompts/dupt.md`, "---\ndescription: project dupt\n---\nProject dupt.");
  t.write(`${cwd}/.pi/prompts/proj.md`, "Project template for $1\n");
  t.write(`${cwd}/.agents/skills/root-loose.md`, skillMd({ description: "loose in an .agents root, skipped" }));
  t.write(`${cwd}/.agents/skills/grp/loose-sub.md`, skillMd({ description: "loose below an .agents root" }));
  t.write(`${repo}/.agents/skills/repo-skill/SKILL.md`, skillMd({ description: "repo .agents skill" }));
  t.write("outer/.agents/skills/outside/SKILL.md", skillMd({ description: "above the git root, skipped" }));
  t.write("extra/xskill/SKILL.md", skillMd({ description: "extra skill" }));
  t.write("extra/xt.md", "Extra template $@\n");
}
