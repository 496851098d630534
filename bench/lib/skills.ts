/**
 * A Pi user's skills and prompt templates for `bench:ab -- skills`: 24 skills in nested folders
 * (frontmatter with folded descriptions, metadata and lists), ignore files at the root and below
 * (6 skill folders ignored), 8 prompt templates. Returns the CLI arguments that load them.
 */
import * as fs from "node:fs";
import * as path from "node:path";

const write = (file: string, text: string): void => {
  fs.mkdirSync(path.dirname(file), { recursive: true });
  fs.writeFileSync(file, text);
};

const skill = (name: string): string =>
  `---\nname: ${name}\ndescription: >\n  Does ${name} things.\n  Use when the task mentions ${name}.\nlicense: MIT\nmetadata:\n  author: bench\n  version: "1.0"\nallowed-tools:\n  - read\n  - bash\n---\n# ${name}\n\nSteps for ${name}.\n`;

export function writeSkillsFixture(dir: string): string[] {
  const skills = path.join(dir, "skills");
  const prompts = path.join(dir, "prompts");
  write(path.join(skills, ".gitignore"), "# generated\nbuild/\n*.tmp.md\nscratch-*/\n");
  write(path.join(skills, "group", ".ignore"), "old/\n");
  for (let i = 0; i < 12; i++) write(path.join(skills, `skill-${i}`, "SKILL.md"), skill(`skill-${i}`));
  for (let i = 0; i < 6; i++) write(path.join(skills, "group", `nested-${i}`, "SKILL.md"), skill(`nested-${i}`));
  for (let i = 0; i < 6; i++) write(path.join(skills, "group", "deeper", `deep-${i}`, "SKILL.md"), skill(`deep-${i}`));
  for (const ignored of ["build/x", "scratch-1/y", "group/old/z", "build/w", "scratch-2/v", "group/old/u"]) {
    write(path.join(skills, ignored, "SKILL.md"), skill(`ignored-${path.basename(ignored)}`));
  }
  for (let i = 0; i < 8; i++) {
    write(path.join(prompts, `prompt-${i}.md`), `---\ndescription: Prompt ${i}\nargument-hint: "[focus]"\n---\nReview $1 with care, then \${@:2}.\n`);
  }
  return ["--skill", skills, "--prompt-template", prompts];
}
