/**
 * A command started in the home keeper (shared/node/sandbox/home-keeper.ts) must see home as one
 * whose own bwrap rebuilds it: the same paths, each as readable and writable, files with the same
 * text, no secret. Run over layouts of roots and secrets (home as the workspace, home inside a
 * writable root, a root in a rebuilt folder, one inside a hidden folder, read-only, a home whose
 * name holds a newline, a space, `:` and `,`). The layout with the workspace in a hidden folder failed before 6502129 (the
 * keeper's view held no root inside a hidden folder: every command failed).
 */
import { strict as assert } from "node:assert";
import { spawnSync } from "node:child_process";
import { mkdirSync, mkdtempSync, realpathSync, rmSync, symlinkSync, writeFileSync } from "node:fs";
import { dirname, join } from "node:path";
import { CommandSandbox, type SandboxPolicy } from "../../shared/node/sandbox";
import { HomeKeeper } from "../../shared/node/sandbox/home-keeper";

const put = (path: string, content: string) => {
  mkdirSync(dirname(path), { recursive: true });
  writeFileSync(path, content);
};

/** A home with secrets (each holding SECRET), plain entries around them, a link to a secret and a protected name. */
function makeHome(base: string): string {
  const home = join(base, "home");
  for (const [name, content] of Object.entries({
    ".netrc": "SECRET-1", ".ssh/id": "SECRET-2", ".config/gh/hosts.yml": "SECRET-3", ".config/other/f": "plain", ".docker/config.json": "SECRET-4",
    ".docker/x": "dx", ".pi/agent/auth.json": "SECRET-5", ".pi/agent/settings.json": "pis", ".local/share/keyrings/k": "SECRET-6",
    ".local/share/other/o": "lso", ".local/bin/tool": "tool", ".bashrc": "rc", ".vscode/settings.json": "vs", "proj/.git/config": "g",
    "proj/src/a": "a", "dot/aws/credentials": "SECRET-7", ".mozilla/p/chrome/user.css": "css", ".mozilla/p/logins.json": "SECRET-8", "w/f": "w",
  })) put(join(home, name), content);
  symlinkSync("dot/aws", join(home, ".aws"));
  symlinkSync(".netrc", join(home, "netrc-link"));
  return home;
}

/** Every path below `base` (depth 7) with r/w as access(2) says and a file's first bytes. */
const probe = `find "$B" -mindepth 1 -maxdepth 7 2>/dev/null | sort | while IFS= read -r p; do
  r=-; w=-; [ -r "$p" ] && r=r; [ -w "$p" ] && w=w; c=""; [ -f "$p" ] && [ -r "$p" ] && c=$(head -c 20 "$p" 2>/dev/null)
  printf '%s %s%s %s\\n' "$p" "$r" "$w" "$c"; done; echo END`;

describe("sandbox: a command in the home keeper sees home as one that rebuilds it itself", function () {
  this.timeout(120_000);
  const layouts: [string, (home: string, base: string) => Partial<SandboxPolicy>][] = [
    ["a project of home as the workspace", (h) => ({ workspaceRoot: join(h, "proj") })],
    ["home as the workspace", (h) => ({ workspaceRoot: h })],
    ["home inside the workspace", (_h, b) => ({ workspaceRoot: b })],
    ["a rebuilt folder and a folder of one as writable roots", (h) => ({ workspaceRoot: join(h, "proj"), writableRoots: [join(h, ".config"), join(h, ".local/share/other")] })],
    ["read-only, home as the workspace", (h) => ({ mode: "read-only", workspaceRoot: h })],
    ["the workspace inside a hidden folder (~/.mozilla/…/chrome)", (h) => ({ workspaceRoot: join(h, ".mozilla/p/chrome") })],
    ["home named with a newline, a space, ':' and ','", (h) => ({ workspaceRoot: h })],
  ];
  for (const [name, policyOf] of layouts) {
    it(name, async () => {
      const base = realpathSync(mkdtempSync("/var/tmp/pi-same-view-"));
      const parent = name.startsWith("home named") ? join(base, "a b\nc:d,e") : base;
      mkdirSync(parent, { recursive: true });
      const home = makeHome(parent);
      try {
        const seen: string[] = [];
        for (const keeper of [true, false]) {
          const policy = { mode: "workspace-write", network: false, writableRoots: [], ...policyOf(home, base) } as SandboxPolicy;
          const sandbox = new CommandSandbox(policy, { ...process.env, HOME: home });
          try {
            const found = await sandbox.probe();
            assert.ok(found.ok);
            // Without nsenter the sandbox has no keeper: every command's bwrap rebuilds home itself.
            if (!keeper) (sandbox as unknown as { homeKeeper: HomeKeeper }).homeKeeper = new HomeKeeper(found.program, undefined);
            await sandbox.prepare();
            const wrapped = sandbox.wrap(found, ["/bin/sh", "-c", probe], home);
            assert.equal([wrapped.file, ...wrapped.args].some((arg) => arg.endsWith("/nsenter")), keeper, keeper ? "in a keeper" : "in none");
            const ran = spawnSync(wrapped.file, wrapped.args, { encoding: "utf8", env: { ...process.env, B: base } });
            wrapped.release();
            assert.match(ran.stdout, /END\n$/, ran.stderr);
            seen.push(ran.stdout);
          } finally {
            sandbox.dispose();
          }
        }
        const [inKeeper, own] = seen.map((out) => out!.split("\n"));
        assert.ok(inKeeper!.length > 20, inKeeper!.join("\n"));
        assert.deepEqual(inKeeper!.filter((line) => /SECRET/.test(line)), [], "no secret seen");
        assert.deepEqual(inKeeper, own);
      } finally {
        rmSync(base, { recursive: true, force: true });
      }
    });
  }
});
