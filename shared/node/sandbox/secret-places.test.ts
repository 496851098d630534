import { strict as assert } from "node:assert";
import { mkdtempSync, rmSync } from "node:fs";
import { tmpdir, userInfo } from "node:os";
import { join } from "node:path";
import { secretHomes, secretPlacesOfHomes } from "./secret-places";

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
});
