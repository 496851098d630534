import { readFileSync } from "node:fs";

/**
 * The fields of a /proc `stat` file after the name: [0] the state letter, [1] ppid, [2] the
 * process group, … [19] the start time. The name (field 2) may hold spaces and parentheses, so
 * the fields are counted from the last ')'. Undefined when the file cannot be read (the process
 * is gone, or there is no /proc).
 */
export function procStatFields(path: string): string[] | undefined {
  try {
    const stat = readFileSync(path, "latin1");
    return stat.slice(stat.lastIndexOf(")") + 2).split(" ");
  } catch {
    return undefined;
  }
}
