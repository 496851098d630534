import { promises as fsp, readFileSync } from "node:fs";

/**
 * The fields of a /proc `stat` file after the name: [0] the state letter, [1] ppid, [2] the
 * process group, … [19] the start time. The name (field 2) may hold spaces and parentheses, so
 * the fields are counted from the last ')'. Undefined when the file cannot be read (the process
 * is gone, or there is no /proc).
 */
export function procStatFields(path: string): string[] | undefined {
  try {
    return fieldsOf(readFileSync(path, "latin1"));
  } catch {
    return undefined;
  }
}

/** procStatFields, read without blocking (the extension host's hot path). */
export async function procStatFieldsAsync(path: string): Promise<string[] | undefined> {
  try {
    return fieldsOf(await fsp.readFile(path, "latin1"));
  } catch {
    return undefined;
  }
}

const fieldsOf = (stat: string) => stat.slice(stat.lastIndexOf(")") + 2).split(" ");
