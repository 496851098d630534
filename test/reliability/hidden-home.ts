/**
 * The set-up the hostile reviews of the hidden home secrets share: the real bundled host over RPC,
 * sandboxed (`workspace-write`, Full auto, `--workspace-only`), with the user's home opened as the
 * workspace and holding secrets the sandbox hides, each with a word no other file holds; a turn of
 * scripted tool calls; and a perl loop the model leaves running in the sandbox.
 */
import { strict as assert } from "node:assert";
import { existsSync, mkdirSync, readFileSync, renameSync, writeFileSync } from "node:fs";
import { dirname, join } from "node:path";
import type { MockToolCall } from "../support/mock-llm";
import { peerLaunch, type PeerLaunch } from "../support/peers";
import { useScriptedSuite } from "./scripted-suite";
import { RawHost, until, type Frame } from "./raw-host";

export function put(path: string, content: string): void {
  mkdirSync(dirname(path), { recursive: true });
  writeFileSync(path, content);
}

/** Secrets the sandbox hides, each holding a word no other file holds (the Docker one as `docker login` writes it). */
export const secrets: Record<string, string> = {
  ".ssh/HIDDEN-SSH-NAME_ed25519": "HIDDEN-SSH-KEY\n",
  ".aws/credentials": "[default]\naws_secret_access_key = HIDDEN-AWS-KEY\n",
  ".docker/config.json": '{\n\t"auths": {\n\t\t"HIDDEN-REGISTRY.example.com": {\n\t\t\t"auth": "HIDDEN-DOCKER-AUTH"\n\t\t}\n\t}\n}\n',
  ".gem/credentials": "---\n:rubygems_api_key: HIDDEN-GEM-KEY\n",
  ".netrc": "machine example.com login me password HIDDEN-NETRC-PASS{x\n",
};
const words = ["HIDDEN-SSH-NAME", "HIDDEN-SSH-KEY", "HIDDEN-AWS-KEY", "HIDDEN-REGISTRY", "HIDDEN-DOCKER-AUTH", "HIDDEN-GEM-KEY", "HIDDEN-NETRC-PASS"];
/** Results holding a secret's word; a refusal only repeats the path the model itself wrote (it knew the name). */
export const leaked = (results: string[]): string[] =>
  results.filter((r) => !/^\w+: Refused: \S+ is in ~\/[^ ]+, which the sandbox hides from this agent\.$/.test(r) && words.some((word) => r.includes(word)));

/** What the user's git (or a token refresh) does: a lock file written and renamed into place. */
export const storedByRename = (content: string) => (path: string) => {
  mkdirSync(dirname(path), { recursive: true });
  writeFileSync(`${path}.lock`, content);
  renameSync(`${path}.lock`, path);
};

let ids = 0;
const nextId = () => `hh${++ids}`;

export interface HiddenHome {
  host: RawHost;
  home: string;
  /** The workspace: home, or a folder of it. */
  cwd: string;
}

/** Registers the suite's scripted LLM and the clean-up of what each test started; returns the set-up's steps. */
export function useHiddenHomeSuite() {
  const suite = useScriptedSuite();
  // The loops a test started end with it (two cores: five at once would slow every later test).
  const endOfTest: (() => Promise<unknown>)[] = [];
  afterEach(async () => {
    for (const step of endOfTest.splice(0)) await step();
    // A test that failed mid-turn leaves its turns; the next test's host would take them.
    suite.llm.discardPending();
  });

  /** The host in home (or, with `workspace`, in that folder of home: home itself read-only then). */
  async function homeAsWorkspace(extraArgs: string[] = [], workspace?: string): Promise<HiddenHome> {
    const launch: PeerLaunch = peerLaunch("host", { mockBaseUrl: suite.llm.baseUrl });
    suite.undo(() => launch.cleanup());
    const home = launch.cwd;
    for (const [name, content] of Object.entries(secrets)) put(join(home, name), content);
    put(join(home, "notes.txt"), "a plain file\n");
    // A folder the model's commands may make names in (home's own top level is read-only inside the sandbox).
    mkdirSync(join(home, "w"));
    const cwd = workspace === undefined ? home : join(home, workspace);
    mkdirSync(cwd, { recursive: true });
    // auto: nothing asked (a user's ordinary choice under a sandbox); home opened as the workspace.
    const args = [...launch.args, "--permission-mode", "auto", "--sandbox", "workspace-write", "--tools", "read,bash,grep,find,ls,write,edit", "--workspace-only", ...extraArgs];
    const host = new RawHost(launch.command, args, { env: { ...launch.env, HOME: home }, cwd });
    suite.undo(() => host.stop());
    await host.request({ id: nextId(), type: "set_auto_retry", enabled: false });
    return { host, home, cwd };
  }

  /** One prompt; each call its own assistant message (so the calls are spread in time), then "done". */
  async function turn(host: RawHost, calls: MockToolCall[]): Promise<string[]> {
    suite.llm.enqueue(...calls.map((call) => ({ toolCalls: [call] })), { text: "done" });
    const { from } = await host.promptAnswering(nextId(), "go", () => "Deny").catch((error: Error) => {
      throw new Error(`${error.message}; the host's stderr ends: ${host.stderr.slice(-1500)}`);
    });
    const ends = host.frames.slice(from).filter((f) => f.type === "tool_execution_end") as (Frame & { toolName: string; result: { content: { text?: string }[] } })[];
    return ends.map((end) => `${end.toolName}: ${end.result.content.map((c) => c.text ?? "").join("")}`);
  }

  /**
   * Starts, in the sandbox, a perl loop that outlives its bash call (setsid nohup: the bash tool
   * returns, the job goes on) and runs `body` as fast as it can until the test ends; waits for
   * `ready` (a shell test) to hold.
   */
  async function startLoop({ host, cwd }: HiddenHome, body: string, ready: string): Promise<void> {
    // The loop's own files in a folder of the workspace (home's top level is read-only inside the sandbox).
    const jobs = join(cwd, "jobs");
    mkdirSync(jobs, { recursive: true });
    const loop = `until (-e "${jobs}/stop-looping") {\n${body}\n}\nopen(F, ">${jobs}/loop-ended"); close F;`;
    const command = `cat > ${jobs}/loop.pl <<'PL'\n${loop}\nPL\nsetsid nohup perl ${jobs}/loop.pl >/dev/null 2>&1 &\nuntil ${ready}; do sleep 0.01; done; echo looping`;
    const [started] = await turn(host, [{ name: "bash", arguments: { command } }]);
    assert.match(started ?? "", /looping/, started);
    endOfTest.push(async () => {
      writeFileSync(join(jobs, "stop-looping"), "");
      await until(() => existsSync(join(jobs, "loop-ended")), 10_000);
    });
  }

  /** `times` calls of one tool, each its own message, while a loop runs; what leaked. */
  async function repeatedly(host: RawHost, times: number, call: MockToolCall): Promise<{ results: string[]; leaks: string[] }> {
    const from = host.frames.length;
    const results = await turn(host, Array.from({ length: times }, () => call));
    // A run that ended early says why (a model error: the scripted LLM's request failed or was slow).
    const why = JSON.stringify(host.frames.slice(from).filter((f) => f.type === "agent_end")).match(/"errorMessage":"[^"]*"/g);
    assert.equal(results.length, times, `the run ended after ${results.length} calls: ${why?.join(", ") ?? "no error"}`);
    return { results, leaks: leaked(results) };
  }

  const beats = (at: HiddenHome) => {
    try {
      return Number(readFileSync(join(at.cwd, "jobs/beat"), "utf8")) || 0;
    } catch {
      return 0;
    }
  };

  /**
   * Starts a job watching `secret` (relative to home), lets `change` happen on the host, waits
   * until the job has looked 20 more times; what it copied (a content holding HIDDEN-NEW), if anything.
   */
  async function jobAfterChange(at: HiddenHome, secret: string, change: (path: string) => void): Promise<string | undefined> {
    const path = join(at.home, secret);
    const loot = join(at.cwd, "jobs/loot");
    // The copy renamed into place: the test never reads it half written.
    const body = `
      if (open(my $f, "<", "${path}")) { local $/; my $c = <$f>; close $f;
        if ($c =~ /HIDDEN-NEW/) { open(my $o, ">", "${loot}.tmp"); print $o $c; close $o; rename("${loot}.tmp", "${loot}"); } }
      $n++; open(my $b, ">", "${at.cwd}/jobs/beat.tmp"); print $b $n; close $b; rename("${at.cwd}/jobs/beat.tmp", "${at.cwd}/jobs/beat");`;
    await startLoop(at, body, `[ -s ${at.cwd}/jobs/beat ]`);
    change(path);
    const from = beats(at);
    await until(() => beats(at) >= from + 20 || existsSync(loot), 20_000);
    assert.ok(beats(at) >= from + 20 || existsSync(loot), `the job stopped looking (${beats(at)} rounds)`);
    return existsSync(loot) ? readFileSync(loot, "utf8") : undefined;
  }

  return { suite, endOfTest, homeAsWorkspace, turn, startLoop, repeatedly, jobAfterChange };
}
