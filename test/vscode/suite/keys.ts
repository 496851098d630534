import { ui } from "./ui";

/** A two-key chord as a user types it (e.g. Ctrl+K then ]): VS Code waits for the second key. */
export async function pressChord(first: string, second: string): Promise<void> {
  await ui.pressKey(first);
  await ui.pressKey(second);
}
