/**
 * Copies of a home secret under a name derived from its own, beside it: what an editor or a tool
 * makes while the user edits or stores it (emacs's `.netrc~` backup and `#.netrc#` auto-save, vim's
 * `.netrc.swp` swap file, git's `.git-credentials.lock`, a `.bak`), and the user's own backups
 * (`cp -r ~/.ssh ~/.ssh.bak`). The sandbox hid the names alone: its commands, and the doors that
 * judge by its places (the host's file tools, the editor's), read the copies. Real bwrap.
 */
import { strict as assert } from "node:assert";
import { spawnSync } from "node:child_process";
import { mkdirSync, mkdtempSync, realpathSync, rmSync, writeFileSync } from "node:fs";
import { dirname, join } from "node:path";
import { CommandSandbox } from "../../shared/node/sandbox";
import { hiddenSecretOf } from "../../shared/node/sandbox/protected-match";

const copies: Record<string, string> = {
  ".netrc~": "machine a password COPY-1\n",
  "#.netrc#": "machine a password COPY-2\n",
  ".netrc.swp": "b0VIM machine a password COPY-3\n",
  ".git-credentials.lock": "https://me:COPY-4@example.com\n",
  ".ssh.bak/id_ed25519": "COPY-5\n",
  ".docker/config.json.bak": '{"auths":{"r":{"auth":"COPY-6"}}}\n',
  ".docker/.config.json.swp": "COPY-7\n",
  ".aws-old/credentials": "COPY-8\n",
};
/** Names that only begin like a secret's: shown as before. */
const notCopies: Record<string, string> = { ".sshrc": "PLAIN-1\n", ".config/ghostty/config": "PLAIN-2\n", ".netrcfoo": "PLAIN-3\n" };

describe("sandbox: copies of a home secret beside it (backups, swap and lock files)", function () {
  this.timeout(60_000);
  let home: string;
  beforeEach(() => {
    home = realpathSync(mkdtempSync("/var/tmp/pi-copies-"));
    for (const [name, content] of Object.entries({ ".netrc": "machine a password SECRET\n", ".ssh/id_ed25519": "SECRET\n", ".docker/config.json": "SECRET\n", ...copies, ...notCopies })) {
      mkdirSync(dirname(join(home, name)), { recursive: true });
      writeFileSync(join(home, name), content);
    }
    mkdirSync(join(home, "proj"));
  });
  afterEach(() => rmSync(home, { recursive: true, force: true }));

  for (const workspace of ["proj", "."]) {
    it(`are hidden from commands like the secret (${workspace === "." ? "home" : "a project of home"} as the workspace); names that only begin alike are not`, async () => {
      const sandbox = new CommandSandbox({ mode: "workspace-write", network: false, workspaceRoot: join(home, workspace), writableRoots: [] }, { ...process.env, HOME: home });
      try {
        const probe = await sandbox.probe();
        assert.ok(probe.ok);
        await sandbox.prepare();
        const names = [...Object.keys(copies), ...Object.keys(notCopies)].map((name) => `'${join(home, name)}'`).join(" ");
        const wrapped = sandbox.wrap(probe, ["/bin/sh", "-c", `cat ${names} 2>/dev/null; echo end`], join(home, workspace));
        const ran = spawnSync(wrapped.file, wrapped.args, { encoding: "utf8" });
        wrapped.release();
        assert.match(ran.stdout, /end/, ran.stderr);
        assert.deepEqual(ran.stdout.match(/COPY-\d/g) ?? [], [], "copies read");
        assert.deepEqual(ran.stdout.match(/PLAIN-\d/g), ["PLAIN-1", "PLAIN-2", "PLAIN-3"]);
      } finally {
        sandbox.dispose();
      }
    });
  }

  it("are hidden from the doors that judge by the sandbox's places (the host's file tools, the editor's)", () => {
    for (const name of Object.keys(copies)) assert.ok(hiddenSecretOf(join(home, name), { HOME: home }), name);
    for (const name of Object.keys(notCopies)) assert.equal(hiddenSecretOf(join(home, name), { HOME: home }), undefined, name);
  });
});
