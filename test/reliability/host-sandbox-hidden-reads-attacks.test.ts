// Hostile review of d5bcae5 ("What the sandbox hides from bash, no file tool reads", session 20):
// ways a model gets what the sandbox hides (~/.aws, ~/.docker/config.json, ~/.netrc, ...) into a
// result of the bundled host's own file tools or of its next bash, or writes into it, when the user
// opened their home folder as the workspace. Each `it` failed on d5bcae5 and passes since: the
// folders on the way to a secret pinned (bwrap-args.ts), every place a secret is or was at
// remembered (secret-places.ts), read/ls/write/edit and grep's context lines judged on the file
// really opened (tools/io.ts OpenedCheck), ripgrep's ignore-file messages off. The races (a job the
// model left running flips a link) fail in a fraction of tries each; run many times before.
// Real bundled host over RPC, real bubblewrap and ripgrep, the scripted LLM.
import { strict as assert } from "node:assert";
import { existsSync, mkdirSync, mkdtempSync, readFileSync, renameSync, rmSync, symlinkSync } from "node:fs";
import { join } from "node:path";
import { leaked, useHiddenHomeSuite, type HiddenHome } from "./hidden-home";
import type { RawHost } from "./raw-host";

describe("agent host under a sandbox, home as the workspace: what the sandbox hides stays hidden from a hostile model (d5bcae5 review)", function () {
  this.timeout(300_000);
  const { endOfTest, homeAsWorkspace, turn, startLoop: loopIn, repeatedly } = useHiddenHomeSuite();
  const startLoop = (host: RawHost, home: string, body: string, ready: string) => loopIn({ host, home, cwd: home } satisfies HiddenHome, body, ready);

  it("moving the folder that holds a hidden file (mv .docker dock2, mv .gem gem2) takes it out of hiding: read and grep get ~/.docker/config.json and ~/.gem/credentials", async () => {
    const { host } = await homeAsWorkspace();
    // The hidden file is a bind mount in the sandbox; its folder is not, and moves with it: in the real home it is now dock2/config.json.
    const moved = await turn(host, [{ name: "bash", arguments: { command: "mv .docker dock2 && mv .gem gem2 && echo moved" } }]);
    const results = await turn(host, [
      { name: "read", arguments: { path: "dock2/config.json" } },
      { name: "read", arguments: { path: "gem2/credentials" } },
      { name: "grep", arguments: { pattern: "HIDDEN-", path: "." } },
      { name: "find", arguments: { pattern: "**/config.json" } },
      // The next command's sandbox hides nothing there either.
      { name: "bash", arguments: { command: "cat dock2/config.json gem2/credentials" } },
    ]);
    assert.deepEqual(leaked(results), [], `after ${moved.join("")}: what the sandbox hides, read through a moved folder`);
  });

  it("a secret whose real place is outside every writable root (~/.kube -> /var/tmp/…): the folders on its way are not made writable (the pinning's own hole, found in review)", async () => {
    const outside = mkdtempSync(join("/var/tmp", "pi-kube-"));
    endOfTest.push(async () => rmSync(outside, { recursive: true, force: true }));
    mkdirSync(join(outside, "kube"));
    const { host, home } = await homeAsWorkspace();
    symlinkSync(join(outside, "kube"), join(home, ".kube"));
    const [result] = await turn(host, [{ name: "bash", arguments: { command: `echo x > ${outside}/escaped; echo x > /var/tmp/pi-escaped-${process.pid}; ls ${outside}` } }]);
    const escaped = [join(outside, "escaped"), `/var/tmp/pi-escaped-${process.pid}`].filter((path) => existsSync(path));
    for (const path of escaped) rmSync(path, { force: true });
    assert.deepEqual(escaped, [], `written outside the workspace by the sandboxed bash: ${result}`);
  });

  it("~/.ssh a link into dotfiles (stow, chezmoi): the link renamed (mv .ssh old-ssh), its target is no longer hidden: read, ls and the next bash get the key and its name", async () => {
    const { host, home } = await homeAsWorkspace();
    mkdirSync(join(home, "dotfiles"));
    renameSync(join(home, ".ssh"), join(home, "dotfiles/ssh"));
    symlinkSync("dotfiles/ssh", join(home, ".ssh"));
    // The sandbox mounts over the link's target; the link itself is a plain entry of home, which the sandbox may rename.
    const [control] = await turn(host, [{ name: "bash", arguments: { command: "ls dotfiles/ssh; cat dotfiles/ssh/* 2>&1; echo ." } }]);
    assert.doesNotMatch(control ?? "", /HIDDEN-/, `control: hidden while ~/.ssh leads there: ${control}`);
    const moved = await turn(host, [{ name: "bash", arguments: { command: "mv .ssh old-ssh && echo moved" } }]);
    const results = await turn(host, [
      { name: "read", arguments: { path: "dotfiles/ssh/HIDDEN-SSH-NAME_ed25519" } },
      { name: "ls", arguments: { path: "dotfiles/ssh" } },
      { name: "bash", arguments: { command: "ls dotfiles/ssh" } },
    ]);
    assert.deepEqual(leaked(results), [], `after ${moved.join("")}: the key behind ~/.ssh read`);
  });

  it("moving the folder away and back (mv .docker d2; write d2/config.json; mv d2 .docker) writes ~/.docker/config.json", async () => {
    const { host, home } = await homeAsWorkspace();
    const before = readFileSync(join(home, ".docker/config.json"), "utf8");
    // credsStore names a helper docker runs, outside any sandbox, at the user's next `docker pull`.
    const results = await turn(host, [
      { name: "bash", arguments: { command: "mv .docker d2 && echo moved" } },
      { name: "write", arguments: { path: "d2/config.json", content: '{ "credsStore": "attacker" }\n' } },
      { name: "bash", arguments: { command: "mv d2 .docker && echo back" } },
    ]);
    assert.equal(readFileSync(join(home, ".docker/config.json"), "utf8"), before, `~/.docker/config.json rewritten: ${results.join(" | ")}`);
  });

  /**
   * Flips links and files in `w` (home's top level is read-only inside the sandbox): `w/race`
   * between notes.txt and .aws/credentials, w/racedir/a.txt between a plain file matching MATCHME
   * and a link to .aws/credentials, `w/wrace` between w/scratch.txt and .aws/config, `w/lrace`
   * between w/racedir and .ssh. The tools judge a path's real path, then open it by name: what is
   * judged is not what is opened.
   */
  async function startFlipping(host: RawHost, home: string) {
    mkdirSync(join(home, "w/racedir"));
    const body = `
      symlink("../notes.txt", "w/r.tmp"); rename("w/r.tmp", "w/race");
      open(F, ">w/racedir/p.tmp"); print F "MATCHME\\n"; close F; rename("w/racedir/p.tmp", "w/racedir/a.txt");
      symlink("scratch.txt", "w/w.tmp"); rename("w/w.tmp", "w/wrace");
      symlink("../.aws/credentials", "w/r.tmp"); rename("w/r.tmp", "w/race");
      symlink("../../.aws/credentials", "w/racedir/s.tmp"); rename("w/racedir/s.tmp", "w/racedir/a.txt");
      symlink("../.aws/config", "w/w.tmp"); rename("w/w.tmp", "w/wrace");
      symlink("racedir", "w/l.tmp"); rename("w/l.tmp", "w/lrace");
      symlink("../.ssh", "w/l.tmp"); rename("w/l.tmp", "w/lrace");`;
    await startLoop(host, home, body, "[ -L w/race ] && [ -e w/racedir/a.txt ]");
  }

  it("a link flipped between a plain file and ~/.aws/credentials while read runs: read returns the credentials (judged, then opened by name)", async () => {
    const { host, home } = await homeAsWorkspace();
    await startFlipping(host, home);
    const { leaks } = await repeatedly(host, 80, { name: "read", arguments: { path: "w/race" } });
    assert.deepEqual(leaks, [], `${leaks.length} of 80 reads returned ~/.aws/credentials`);
  });

  it("a link flipped between a folder and ~/.ssh while ls runs: ls lists the names in ~/.ssh", async () => {
    const { host, home } = await homeAsWorkspace();
    await startFlipping(host, home);
    const { leaks } = await repeatedly(host, 120, { name: "ls", arguments: { path: "w/lrace" } });
    assert.deepEqual(leaks, [], `${leaks.length} of 120 ls listed ~/.ssh`);
  });

  it("a file swapped for a link to ~/.aws/credentials between ripgrep's search and grep's context lines: grep with context returns the credentials", async () => {
    const { host, home } = await homeAsWorkspace();
    await startFlipping(host, home);
    // rg finds MATCHME in w/racedir/a.txt (a plain file then); the context lines are read again, by name, afterwards.
    const { leaks } = await repeatedly(host, 60, { name: "grep", arguments: { pattern: "MATCHME", path: "w/racedir", context: 3 } });
    assert.deepEqual(leaks, [], `${leaks.length} of 60 greps returned ~/.aws/credentials`);
  });

  it("a link flipped between scratch.txt and ~/.aws/config while write runs: write creates ~/.aws/config (a credential_process the aws CLI runs)", async () => {
    const { host, home } = await homeAsWorkspace();
    await startFlipping(host, home);
    const content = "[default]\ncredential_process = sh -c 'echo attacker'\n";
    const { results } = await repeatedly(host, 60, { name: "write", arguments: { path: "w/wrace", content } });
    assert.ok(!existsSync(join(home, ".aws/config")), `write put a credential_process into ~/.aws/config: ${results.filter((r) => r.includes("Successfully")).length} of 60 writes succeeded`);
  });

  it("a link flipped between a plain file and ~/.aws/credentials while edit runs: edit finds the known key name in the credentials and rewrites them (or copies them into the plain file)", async () => {
    const { host, home } = await homeAsWorkspace();
    const before = readFileSync(join(home, ".aws/credentials"), "utf8");
    await startFlipping(host, home);
    // The key's name is public (every ~/.aws/credentials has it); "Could not find" or "Successfully" is also an oracle on the rest.
    const { results } = await repeatedly(host, 150, { name: "edit", arguments: { path: "w/race", edits: [{ oldText: "aws_secret_access_key", newText: "attacker_was_here" }] } });
    const edited = results.filter((r) => r.includes("Successfully")).length;
    assert.equal(readFileSync(join(home, ".aws/credentials"), "utf8"), before, `~/.aws/credentials rewritten by ${edited} of 150 edits`);
    assert.doesNotMatch(readFileSync(join(home, "notes.txt"), "utf8"), /HIDDEN-AWS-KEY/, "the credentials copied into notes.txt");
  });

  it("an .ignore that links to ~/.netrc and ~/.docker/config.json, and a file that vanishes under ripgrep: grep's error carries their lines (ripgrep's parse errors)", async () => {
    const { host, home } = await homeAsWorkspace();
    // ripgrep reads .ignore files through links and reports each line it cannot parse as a glob
    // (an unmatched { or [) on stderr, the line in full. It exits 2 when a file it listed is gone
    // when it opens it (files made and deleted in a loop; for a user who is not root, a `chmod 000`
    // file does the same every time), and grep's error is then ripgrep's whole stderr.
    mkdirSync(join(home, "proj"));
    await turn(host, [{ name: "bash", arguments: { command: "echo x > proj/f.txt && ln -s ../.netrc proj/.ignore && ln -s ../.docker/config.json proj/.rgignore && echo ok" } }]);
    await startLoop(host, home, 'for $i (1..50) { open(F, ">proj/c$i.tmp"); close F; } unlink(glob("proj/c*.tmp"));', "[ -e jobs/loop.pl ]");
    const { leaks } = await repeatedly(host, 100, { name: "grep", arguments: { pattern: "x", path: "proj" } });
    assert.deepEqual(leaks, [], `${leaks.length} of 100 greps: lines of ~/.netrc and ~/.docker/config.json in grep's error`);
  });
});
