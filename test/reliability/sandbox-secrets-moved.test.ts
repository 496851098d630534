/**
 * Home secrets where the environment moves them, as their tools read it: `KUBECONFIG` (a cluster's
 * credentials in ~/clusters/prod.yaml), `DOCKER_CONFIG`, `XDG_CONFIG_HOME` (gh's hosts.yml),
 * `GNUPGHOME`, `AWS_SHARED_CREDENTIALS_FILE`. The sandbox hid the places under their default names
 * alone: its commands read the moved ones, and so did the doors that judge by its places. Real bwrap.
 */
import { strict as assert } from "node:assert";
import { mkdirSync, mkdtempSync, realpathSync, rmSync, writeFileSync } from "node:fs";
import { dirname, join } from "node:path";
import { CommandSandbox } from "../../shared/node/sandbox";
import { hiddenSecretOf } from "../../shared/node/sandbox/protected-match";
import { runSandboxed } from "../support/sandboxed-run";

describe("sandbox: home secrets where the environment moves them", function () {
  this.timeout(60_000);
  let home: string;
  beforeEach(() => (home = realpathSync(mkdtempSync("/var/tmp/pi-moved-"))));
  afterEach(() => rmSync(home, { recursive: true, force: true }));

  it("are hidden from commands and from the doors, as at their default places", async () => {
    const moved: Record<string, string> = {
      "clusters/prod.yaml": "users:\n- user: {token: MOVED-1}\n",
      "clusters/staging.yaml": "users:\n- user: {token: MOVED-2}\n",
      "dock/config.json": '{"auths":{"r":{"auth":"MOVED-3"}}}\n',
      "xdg/gh/hosts.yml": "github.com:\n  oauth_token: MOVED-4\n",
      "keys/gnupg/private-keys-v1.d/k.key": "MOVED-5\n",
      "cloud/aws-credentials": "[default]\naws_secret_access_key = MOVED-6\n",
      "xdg/plain.txt": "PLAIN\n",
    };
    for (const [name, content] of Object.entries(moved)) {
      mkdirSync(dirname(join(home, name)), { recursive: true });
      writeFileSync(join(home, name), content);
    }
    mkdirSync(join(home, "proj"));
    const env = {
      HOME: home,
      KUBECONFIG: `${join(home, "clusters/prod.yaml")}:${join(home, "clusters/staging.yaml")}`,
      DOCKER_CONFIG: join(home, "dock"),
      XDG_CONFIG_HOME: join(home, "xdg"),
      GNUPGHOME: join(home, "keys/gnupg"),
      AWS_SHARED_CREDENTIALS_FILE: join(home, "cloud/aws-credentials"),
    };
    const sandbox = new CommandSandbox({ mode: "workspace-write", network: false, workspaceRoot: join(home, "proj"), writableRoots: [] }, { ...process.env, ...env });
    try {
      const ran = await runSandboxed(sandbox, `cd ${home} && cat ${Object.keys(moved).join(" ")} 2>/dev/null; echo end`, join(home, "proj"));
      assert.match(ran.out, /PLAIN\n[^]*end/, ran.out);
      assert.deepEqual(ran.out.match(/MOVED-\d/g) ?? [], [], "moved secrets read by a command");
    } finally {
      sandbox.dispose();
    }
    for (const name of Object.keys(moved)) assert.equal(hiddenSecretOf(join(home, name), env) !== undefined, name !== "xdg/plain.txt", name);
  });
});
