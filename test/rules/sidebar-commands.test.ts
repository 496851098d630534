// The side bar chat's title bar runs its commands on the side bar's chat (#32 trial: its "New
// Session" button reset the editor tab's chat that was active before). Its buttons and "…" menu use
// the `pi.sidebar.*` aliases of extension/sessions/sidebar-commands.ts; this checks package.json
// and that list agree, so a button added later cannot quietly act on another chat.
import { strict as assert } from "node:assert";
import * as fs from "node:fs";
import * as path from "node:path";

const root = path.resolve(__dirname, "..", "..");
interface Command { command: string; title: string; category?: string; icon?: string; enablement?: string }
interface MenuItem { command: string; when?: string }
const manifest = JSON.parse(fs.readFileSync(path.join(root, "package.json"), "utf8")) as {
  contributes: { commands: Command[]; menus: Record<string, MenuItem[]> };
};
const source = fs.readFileSync(path.join(root, "extension/sessions/sidebar-commands.ts"), "utf8");
const listed = [...(/sidebarCommands = \[([^\]]*)\]/.exec(source)?.[1] ?? "").matchAll(/"(pi\.[\w.]+)"/g)].map((m) => m[1]!);
const alias = (command: string) => command.replace(/^pi\./, "pi.sidebar.");

describe("the side bar chat's title bar acts on the side bar's chat", () => {
  it("reads the list of aliased commands", () => assert.ok(listed.length >= 10, `found ${listed.join(", ")}`));

  it("uses only the aliases in the chat view's title bar and menu", () => {
    const chatTitle = manifest.contributes.menus["view/title"]!.filter((m) => m.when?.startsWith("view == pi.chat"));
    const sessionCommands = new Set(listed);
    for (const item of chatTitle) assert.ok(!sessionCommands.has(item.command), `${item.command} in the chat's title bar acts on the active chat: use ${alias(item.command)}`);
    assert.ok(chatTitle.some((m) => m.command === "pi.sidebar.newSession"));
  });

  it("contributes each alias like its command, hidden from the palette", () => {
    const commands = new Map(manifest.contributes.commands.map((c) => [c.command, c]));
    const hidden = new Set(manifest.contributes.menus.commandPalette!.filter((m) => m.when === "false").map((m) => m.command));
    for (const command of listed) {
      const base = commands.get(command);
      const aliased = commands.get(alias(command));
      assert.ok(base && aliased, `${alias(command)} is contributed`);
      assert.deepEqual({ ...aliased, command }, base, `${alias(command)} looks like ${command}`);
      assert.ok(hidden.has(alias(command)), `${alias(command)} is hidden from the palette`);
    }
    const extra = manifest.contributes.commands.filter((c) => c.command.startsWith("pi.sidebar.") && !listed.includes(c.command.replace("pi.sidebar.", "pi.")));
    assert.deepEqual(extra.map((c) => c.command), [], "every contributed alias is registered");
  });
});
