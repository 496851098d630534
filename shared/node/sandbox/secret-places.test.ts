import { strict as assert } from "node:assert";
import { mkdirSync, mkdtempSync, rmSync, symlinkSync } from "node:fs";
import { tmpdir, userInfo } from "node:os";
import { join } from "node:path";
import { hiddenSecretOf } from "./protected-match";
import { isCopyName, secretHomes, secretPlacesOfHomes } from "./secret-places";

describe("the homes whose secrets are hidden", () => {
  const account = userInfo().homedir;
  let elsewhere: string;
  beforeEach(() => (elsewhere = mkdtempSync(join(tmpdir(), "other-home-"))));
  afterEach(() => rmSync(elsewhere, { recursive: true, force: true }));

  // ssh, gpg and git's credential store find ~ in the password database whatever $HOME says.
  it("are $HOME and the account's home, each once; the account's with HOME unset", () => {
    assert.deepEqual(secretHomes({ HOME: elsewhere }), [elsewhere, account]);
    assert.deepEqual(secretHomes({}), [account]);
    assert.deepEqual(secretHomes({ HOME: account }), [account]);
  });

  it("give the places of both homes", () => {
    const paths = secretPlacesOfHomes({ HOME: elsewhere }, 0).map((place) => place.path);
    assert.ok(paths.includes(join(elsewhere, ".ssh")), "$HOME's");
    assert.ok(paths.includes(join(account, ".ssh")), "the account's");
  });

  // 5ed59da judged these on realOrSame (a missing path as written) instead of realPathOf: a file
  // not made yet through a link into ~/.ssh (an editor tool's new file) and the target of a
  // dangling ~/.aws link were not hidden.
  it("judge a path where it would land: a new file through a link into a secret, a dangling secret link's target", () => {
    mkdirSync(join(elsewhere, ".ssh"));
    symlinkSync(".ssh", join(elsewhere, "keys"));
    const target = join(elsewhere, "later-aws");
    symlinkSync(target, join(elsewhere, ".aws"));
    assert.equal(hiddenSecretOf(join(elsewhere, "keys/authorized_keys"), { HOME: elsewhere }), ".ssh");
    secretPlacesOfHomes({ HOME: elsewhere }, 0);
    assert.equal(hiddenSecretOf(join(target, "credentials"), { HOME: elsewhere }), ".aws");
  });

  it("give Pi's own secrets in a PI_CODING_AGENT_DIR elsewhere, named as under ~/.pi/agent; none twice where it is ~/.pi/agent", () => {
    const env = { HOME: elsewhere, PI_CODING_AGENT_DIR: "~/.config/pi" };
    const places = secretPlacesOfHomes(env, 0);
    for (const file of ["auth.json", "models.json", "mcp-auth.json"]) {
      assert.ok(places.some((p) => p.path === join(elsewhere, ".config/pi", file) && p.name === `.pi/agent/${file}`), file);
    }
    assert.equal(hiddenSecretOf(join(elsewhere, ".config/pi/models.json"), env), ".pi/agent/models.json");
    const atHome = secretPlacesOfHomes({ HOME: elsewhere, PI_CODING_AGENT_DIR: join(elsewhere, ".pi/agent") }, 0);
    assert.equal(atHome.filter((p) => p.path === join(elsewhere, ".pi/agent/auth.json")).length, 1);
  });

  it("take a copy beside a secret for it (a backup, a swap or lock file), not a name that only begins alike", () => {
    for (const [name, base] of [[".netrc~", ".netrc"], [".netrc.swp", ".netrc"], ["#.netrc#", ".netrc"], [".#.netrc", ".netrc"], [".ssh.bak", ".ssh"], [".aws-old", ".aws"], ["config.json.lock", "config.json"], [".config.json.swp", "config.json"], ["auth.json_backup", "auth.json"]]) {
      assert.equal(isCopyName(name!, base!), true, name);
    }
    for (const [name, base] of [[".netrc", ".netrc"], [".sshrc", ".ssh"], ["ghostty", "gh"], [".netrcfoo", ".netrc"], ["xconfig.json", "config.json"]]) assert.equal(isCopyName(name!, base!), false, name);
  });
});
