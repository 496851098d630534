// Hostile review of the rebuilt home (d10b91f, shared/node/sandbox/home-view.ts): the folders that
// hold secrets are an empty tmpfs with a bind of each other entry, so a job left running never sees
// a secret the user stores or saves anew later. Attacked here:
//  - with home as the workspace, mounts bwrap-args.ts makes AFTER the rebuilt folders on one of
//    them or a parent (the read-only `.pi`, `.claude`, `.codex` of every writable root, the folders
//    pinned on the way to ~/.local/bin) bind the host's live folder over the rebuilt one;
//  - the same covering made bwrap fail (its read-only remount of a folder no longer a mount point):
//    with home as the workspace and a ~/.local/share or ~/.pi/agent, no sandboxed command started;
//  - the budget (at most 300 entries bound, a home over it keeps the mounts alone): the model's
//    own write tool makes names at home's top level until home is left out.
// Real bundled host over RPC, real bubblewrap, the scripted LLM.
import { strict as assert } from "node:assert";
import { mkdirSync, readdirSync, readFileSync, rmSync, symlinkSync } from "node:fs";
import { join } from "node:path";
import { put, storedByRename, useHiddenHomeSuite } from "./hidden-home";

describe("agent host under a sandbox: the rebuilt home attacked (a later bind over it, the budget)", function () {
  this.timeout(240_000);
  const { homeAsWorkspace, jobAfterChange, turn } = useHiddenHomeSuite();

  describe("home as the workspace: a bind made after the rebuilt folders covers one", () => {
    // Each: a folder the home holds (and a link to make), the pin or read-only bind covering a rebuilt folder.
    const homes: [string, string, [string, string]?][] = [
      ["~/.local/share without keyrings (nearly every desktop home; ~/.local pinned)", ".local/share/applications"],
      ["~/.pi/agent (every Pi user's home; ~/.pi read-only)", ".pi/agent/sessions"],
      ["~/.config/Code/User (every VS Code user's; ~/.config/Code pinned for its settings.json)", ".config/Code/User/snippets"],
      ["~/.config a link to dotfiles/config (stow; ~/dotfiles pinned)", "dotfiles/config/nvim", ["dotfiles/config", ".config"]],
    ];
    for (const [what, folder, link] of homes) {
      it(`${what}: a sandboxed command still starts (bwrap stopped at the seal of the covered folder)`, async () => {
        const at = await homeAsWorkspace();
        mkdirSync(join(at.home, folder), { recursive: true });
        if (link) symlinkSync(link[0], join(at.home, link[1]));
        const [ran] = await turn(at.host, [{ name: "bash", arguments: { command: "echo started-fine" } }]);
        assert.match(ran ?? "", /started-fine/, ran);
      });
    }

    it("~/.pi, ~/.codex, ~/.claude and ~/.local/bin stay read-only where they hold a rebuilt folder (or are one)", async () => {
      const at = await homeAsWorkspace();
      const files = [".pi/agent/settings.json", ".pi/agent/extensions/e.ts", ".codex/config.toml", ".claude/settings.json", ".local/bin/tool"];
      for (const name of files) put(join(at.home, name), "original\n");
      mkdirSync(join(at.home, ".local/share/applications"), { recursive: true });
      const attempts = [...files.map((name) => `echo planted > ${name}`), "echo planted > .pi/new", "echo planted > .pi/agent/new", "echo planted > .codex/new", "echo planted > .local/bin/new"];
      const [ran] = await turn(at.host, [{ name: "bash", arguments: { command: `cd ${at.home}; ${attempts.map((a) => `(${a}) 2>/dev/null && echo WROTE`).join("; ")}; echo tried` } }]);
      assert.match(ran ?? "", /tried/, ran);
      assert.doesNotMatch(ran ?? "", /WROTE/, ran);
      for (const name of files) assert.equal(readFileSync(join(at.home, name), "utf8"), "original\n", name);
    });

    // Each: what the home holds when the job starts, the secret the user's tool saves after.
    const cases: [string, Record<string, string>, string][] = [
      ["~/.codex/auth.json refreshed by rename (codex's token refresh): the read-only .codex of the root is the live folder", { ".codex/auth.json": "{}\n", ".codex/config.toml": "\n" }, ".codex/auth.json"],
      ["~/.claude/.credentials.json refreshed by rename: the read-only .claude is the live folder", { ".claude/.credentials.json": "{}\n", ".claude/settings.json": "{}\n" }, ".claude/.credentials.json"],
      ["~/.pi/agent/mcp-auth.json made by an MCP sign-in: the read-only .pi shows the live ~/.pi/agent", { ".pi/agent/settings.json": "{}\n" }, ".pi/agent/mcp-auth.json"],
      ["~/.local/share/keyrings made later: ~/.local pinned (for ~/.local/bin) shows the live ~/.local/share", { ".local/share/applications/a.desktop": "\n" }, ".local/share/keyrings/login.keyring"],
    ];
    for (const [what, files, secret] of cases) {
      it(what, async () => {
        const at = await homeAsWorkspace();
        for (const [name, content] of Object.entries(files)) put(join(at.home, name), content);
        const copied = await jobAfterChange(at, secret, storedByRename("token HIDDEN-NEW-TOKEN\n"));
        assert.equal(copied, undefined, `the job read the secret saved after it started: ${copied}`);
      });
    }
  });

  it("home as the workspace: the model's write tool makes names at home's top level until home is over the budget; a job of the next command reads ~/.git-credentials stored later", async () => {
    const at = await homeAsWorkspace();
    rmSync(join(at.home, ".git-credentials"), { force: true });
    const writes = Array.from({ length: 305 - readdirSync(at.home).length }, (_, i) => ({ name: "write", arguments: { path: join(at.home, `n${i}.txt`), content: "x\n" } }));
    const results = await turn(at.host, writes);
    assert.ok(results.every((r) => r.startsWith("write: ") && !/refused|denied/i.test(r)), results.find((r) => /refused|denied/i.test(r)));
    assert.ok(readdirSync(at.home).length > 300, `home holds ${readdirSync(at.home).length} entries`);
    const copied = await jobAfterChange(at, ".git-credentials", storedByRename("https://me:HIDDEN-NEW-GIT@example.com\n"));
    assert.equal(copied, undefined, `the job read the token stored after it started: ${copied}`);
  });
});
