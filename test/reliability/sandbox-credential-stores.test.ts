/**
 * Stores of passwords and tokens beside the well-known ones (found by a hostile review, session
 * 24): git's XDG credential store, ~/.pgpass, ~/.my.cnf, podman's auth.json, s3cmd's and boto's
 * keys, rclone's remotes, doctl's, Oracle Cloud's and glab's. A command read them; now they are
 * hidden as the others are, and the doors that judge by the sandbox's places refuse them. Real bwrap.
 */
import { strict as assert } from "node:assert";
import { mkdirSync, mkdtempSync, realpathSync, rmSync, writeFileSync } from "node:fs";
import { dirname, join } from "node:path";
import { CommandSandbox } from "../../shared/node/sandbox";
import { hiddenSecretOf } from "../../shared/node/sandbox/protected-match";
import { runSandboxed } from "../support/sandboxed-run";

const stores: Record<string, string> = {
  ".config/git/credentials": "https://u:STORE-1@example.com\n",
  ".pgpass": "db:5432:*:u:STORE-2\n",
  ".my.cnf": "[client]\npassword=STORE-3\n",
  ".config/containers/auth.json": '{"auths":{"r":{"auth":"STORE-4"}}}\n',
  ".s3cfg": "[default]\nsecret_key = STORE-5\n",
  ".boto": "[Credentials]\naws_secret_access_key = STORE-6\n",
  ".config/rclone/rclone.conf": "[r]\ntoken = STORE-7\n",
  ".config/doctl/config.yaml": "access-token: STORE-8\n",
  ".oci/oci_api_key.pem": "STORE-9\n",
  ".config/glab-cli/config.yml": "token: STORE-10\n",
};

describe("sandbox: other credential stores in home", function () {
  this.timeout(60_000);
  let home: string;
  beforeEach(() => (home = realpathSync(mkdtempSync("/var/tmp/pi-stores-"))));
  afterEach(() => rmSync(home, { recursive: true, force: true }));

  it("are hidden from commands and from the doors; git's own config beside its store stays", async () => {
    for (const [name, content] of Object.entries(stores)) {
      mkdirSync(dirname(join(home, name)), { recursive: true });
      writeFileSync(join(home, name), content);
    }
    writeFileSync(join(home, ".config/git/config"), "[user]\nname = PLAIN\n");
    mkdirSync(join(home, "proj"));
    const sandbox = new CommandSandbox({ mode: "workspace-write", network: false, workspaceRoot: join(home, "proj"), writableRoots: [] }, { ...process.env, HOME: home });
    try {
      const ran = await runSandboxed(sandbox, `cd ${home} && cat .config/git/config ${Object.keys(stores).join(" ")} 2>/dev/null; echo end`, join(home, "proj"));
      assert.match(ran.out, /PLAIN\n[^]*end/, ran.out);
      assert.deepEqual(ran.out.match(/STORE-\d+/g) ?? [], [], "credential stores read by a command");
    } finally {
      sandbox.dispose();
    }
    for (const name of Object.keys(stores)) assert.ok(hiddenSecretOf(join(home, name), { HOME: home }) !== undefined, name);
    assert.equal(hiddenSecretOf(join(home, ".config/git/config"), { HOME: home }), undefined);
  });
});
