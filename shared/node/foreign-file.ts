/**
 * A foreign JSON file of the user's or a project's (settings.json, mcp.json) read through the
 * foreign-JSON door: inert, checked with its schema, what does not fit dropped. A missing file is
 * `{}`; an unreadable or broken one is `{}` with the reason in `problems`, never a throw.
 */
import { existsSync } from "node:fs";
import { readRegularText } from "./regular-file";
import { parseForeignFile, type SchemaValidator } from "../foreign-json";
import { errorText } from "../error-text";

export function readForeignFile<T extends object>(file: string, validate: SchemaValidator, problems: string[]): Partial<T> {
  if (!existsSync(file)) return {};
  let text: string;
  try {
    text = readRegularText(file);
  } catch (error) {
    problems.push(`${file}: ${errorText(error)}`);
    return {};
  }
  const checked = parseForeignFile<T>(text, validate);
  problems.push(...checked.notices.map((notice) => `${file}: ${notice}`));
  if (!checked.ok) problems.push(`${file}: ${checked.error}`);
  return checked.ok ? checked.value : {};
}
