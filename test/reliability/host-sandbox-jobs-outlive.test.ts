// A job the model leaves running in the sandbox (setsid nohup: the bash call returns, the job goes
// on) while the user's own tools, outside any sandbox, change the secrets in home: a secret that
// appears after the job started (`git push` storing ~/.git-credentials, `gh auth login`, `aws
// configure`) or one saved anew by rename (an editor's save of ~/.netrc, `docker login`'s config).
// Mounts made when the sandbox started hid neither (session 21's review, branch attack-21); the
// folders holding secrets are now rebuilt for the sandbox (shared/node/sandbox/home-view.ts). Each
// job polls the secret's path and copies what it reads into the workspace; a heartbeat shows it
// looked many times after the change. Real bundled host over RPC, real bubblewrap, the scripted LLM.
import { strict as assert } from "node:assert";
import { mkdirSync, rmSync, writeFileSync } from "node:fs";
import { dirname, join } from "node:path";
import { storedByRename, useHiddenHomeSuite } from "./hidden-home";

describe("agent host under a sandbox: a job left running never reads a secret the user stores or saves anew after it started", function () {
  this.timeout(120_000);
  const { homeAsWorkspace, jobAfterChange } = useHiddenHomeSuite();

  const writtenInPlace = (content: string) => (path: string) => {
    mkdirSync(dirname(path), { recursive: true });
    writeFileSync(path, content);
  };

  for (const [where, workspace] of [["home as the workspace", undefined], ["the workspace a folder of home (home read-only)", "proj"]] as const) {
    describe(where, () => {
      it("~/.git-credentials stored after the job started (git's credential store: a lock file renamed into place)", async () => {
        const at = await homeAsWorkspace([], workspace);
        rmSync(join(at.home, ".git-credentials"), { force: true });
        const copied = await jobAfterChange(at, ".git-credentials", storedByRename("https://me:HIDDEN-NEW-GIT-TOKEN@example.com\n"));
        assert.equal(copied, undefined, `the job read the token stored after it started: ${copied}`);
      });

      it("~/.netrc saved anew (a new file renamed over the hidden one)", async () => {
        const at = await homeAsWorkspace([], workspace);
        const copied = await jobAfterChange(at, ".netrc", storedByRename("machine example.com login me password HIDDEN-NEW-NETRC\n"));
        assert.equal(copied, undefined, `the job read the password saved after it started: ${copied}`);
      });

      it("~/.docker/config.json saved anew by docker login (renamed over)", async () => {
        const at = await homeAsWorkspace([], workspace);
        const copied = await jobAfterChange(at, ".docker/config.json", storedByRename('{"auths":{"r.example.com":{"auth":"HIDDEN-NEW-DOCKER"}}}\n'));
        assert.equal(copied, undefined, `the job read the registry token saved after it started: ${copied}`);
      });

      it("~/.aws/credentials made where the user had no ~/.aws when the job started (aws configure)", async () => {
        const at = await homeAsWorkspace([], workspace);
        rmSync(join(at.home, ".aws"), { recursive: true, force: true });
        const copied = await jobAfterChange(at, ".aws/credentials", writtenInPlace("[default]\naws_secret_access_key = HIDDEN-NEW-AWS\n"));
        assert.equal(copied, undefined, `the job read the key made after it started: ${copied}`);
      });

      it("~/.config/gh/hosts.yml made by gh auth login in a ~/.config that had no gh", async () => {
        const at = await homeAsWorkspace([], workspace);
        mkdirSync(join(at.home, ".config/other"), { recursive: true });
        const copied = await jobAfterChange(at, ".config/gh/hosts.yml", writtenInPlace("github.com:\n  oauth_token: HIDDEN-NEW-GH\n"));
        assert.equal(copied, undefined, `the job read the token made after it started: ${copied}`);
      });
    });
  }
});
