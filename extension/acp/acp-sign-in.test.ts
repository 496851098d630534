/**
 * Sign-in through the bridge against an in-process ACP agent of the SDK's making that needs it:
 * terminal methods (the spec's `type: "terminal"` and `_meta["terminal-auth"]`) run in the editor's
 * terminal and are never sent to `authenticate`; the client declares terminal sign-in only when it
 * can run one; an agent that still refuses after sign-in is not asked again in a loop; other
 * errors are not taken for "authentication required". Cancelled sign-ins: acp-sign-in-cancel.test.ts.
 */
import { strict as assert } from "node:assert";
import type { SignInMethod } from "./acp-auth";
import { terminalEnvironment, type SignInMemory, type TerminalSignIn } from "./acp-sign-in";
import { noUi, start } from "./acp-sign-in.testkit";

describe("ACP sign-in through the bridge (an SDK agent that needs it)", function () {
  this.timeout(20_000);

  it("the spec's terminal method: the agent's own command with its args runs in the terminal, no authenticate is sent, session/new is made again", async () => {
    let signedIn = false;
    const ran: SignInMethod[] = [];
    const { seen, started, cleanup } = await start(
      { methods: [{ id: "login", name: "Log in", type: "terminal", args: ["--login"], env: { LOGIN: "1" } }], refuses: () => !signedIn },
      noUi({ choose: async (_n, _r, methods) => methods[0]!.id, runInTerminal: async (_n, method) => (ran.push(method), (signedIn = true), 0) }),
    );
    try {
      await started;
      assert.deepEqual(seen.initialize?.clientCapabilities?.auth, { terminal: true }, "terminal sign-in declared: the editor can run it");
      assert.deepEqual(ran.map((m) => m.kind === "terminal" && [m.command, m.args, m.env]), [["node", ["/opt/agent.js", "--acp", "--login"], { LOGIN: "1" }]]);
      assert.deepEqual(seen.authenticate, [], "a terminal method is never passed to authenticate");
      assert.equal(seen.sessionNew, 2);
    } finally {
      cleanup();
    }
  });

  it("a terminal sign-in's environment: the user's pi.agent.env, then the method's own variables (the agent's win where both set one); nothing else of ours", async () => {
    let signedIn = false;
    const ran: TerminalSignIn[] = [];
    const { started, cleanup } = await start(
      { methods: [{ id: "login", name: "Log in", type: "terminal", args: ["--login"], env: { SHARED: "agent", LOGIN: "1" } }], refuses: () => !signedIn },
      noUi({ choose: async (_n, _r, methods) => methods[0]!.id, runInTerminal: async (_n, method) => (ran.push(method), (signedIn = true), 0) }),
      { signInEnv: { HTTPS_PROXY: "http://proxy.example:3128", SHARED: "user" } },
    );
    try {
      await started;
      assert.deepEqual(ran.map((m) => terminalEnvironment(m)), [{ HTTPS_PROXY: "http://proxy.example:3128", SHARED: "agent", LOGIN: "1" }]);
      assert.deepEqual(ran[0]!.userEnv, { HTTPS_PROXY: "http://proxy.example:3128", SHARED: "user" }, "shown apart from the agent's");
    } finally {
      cleanup();
    }
  });

  it("_meta terminal-auth failing (exit 1): the start fails saying the command and its code", async () => {
    const { started, cleanup, seen } = await start(
      { methods: [{ id: "claude-login", name: "Log in", _meta: { "terminal-auth": { command: "claude", args: ["/login"] } } }], refuses: () => true },
      noUi({ choose: async () => "claude-login", runInTerminal: async () => 1 }),
    );
    try {
      await assert.rejects(started, /Sign-in for test agent failed: `claude \/login` exited with code 1/);
      assert.equal(seen.sessionNew, 1);
    } finally {
      cleanup();
    }
  });

  it("an agent still refusing after sign-in: asked once, session/new tried twice, its error stands (no loop)", async () => {
    let asked = 0;
    const { started, cleanup, seen } = await start(
      { methods: [{ id: "own", name: "Own" }], refuses: () => true },
      noUi({ choose: async () => (asked++, "own") }),
    );
    try {
      await assert.rejects(started, /sign in first/);
      assert.equal(asked, 1);
      assert.equal(seen.sessionNew, 2);
      assert.deepEqual(seen.authenticate.map((a) => a.methodId), ["own"]);
    } finally {
      cleanup();
    }
  });

  it("a forged answer (a method the agent did not offer) sends nothing; other errors are not sign-in; no UI: no terminal sign-in declared", async () => {
    const forged = await start({ methods: [{ id: "own", name: "Own" }], refuses: () => true }, noUi({ choose: async () => "not-offered" }));
    try {
      await assert.rejects(forged.started, /sign in first/);
      assert.deepEqual(forged.seen.authenticate, []);
    } finally {
      forged.cleanup();
    }
    const other = await start({ methods: [{ id: "own", name: "Own" }], refuses: () => true, error: (acp) => acp.RequestError.internalError(undefined, "Authentication required") }, noUi({}));
    try {
      await assert.rejects(other.started, /Authentication required/);
      assert.equal(other.seen.sessionNew, 1);
    } finally {
      other.cleanup();
    }
    const bare = await start({ methods: [{ id: "own", name: "Own" }], refuses: () => true }, undefined);
    try {
      await assert.rejects(bare.started, /sign in first/);
      assert.deepEqual(bare.seen.initialize?.clientCapabilities?.auth, { terminal: false });
    } finally {
      bare.cleanup();
    }
  });

  it("the start's deadline leaves out the user's time signing in (a 400 ms pick within a 150 ms deadline); an agent that never opens its session still misses it", async () => {
    let signedIn = false;
    const slow = await start({ methods: [{ id: "own", name: "Own" }], refuses: () => !signedIn }, noUi({ choose: async () => (await new Promise((r) => setTimeout(r, 400)), (signedIn = true), "own") }));
    try {
      const begin = Date.now();
      await slow.bridge.whenStarted(150);
      assert.ok(Date.now() - begin >= 400, "waited for the user");
    } finally {
      slow.cleanup();
    }
    const hung = await start({ methods: [], refuses: () => false, hang: true }, undefined);
    try {
      await assert.rejects(hung.bridge.whenStarted(150), /test agent did not open a session within 150 ms/);
    } finally {
      hung.cleanup();
    }
  });

  it("an agent that asks at the first prompt: signed in there, the prompt sent again, the turn ends as usual", async () => {
    let signedIn = false;
    const agent = await start({ methods: [{ id: "own", name: "Own" }], refuses: () => false, refusesPrompt: () => !signedIn }, noUi({ choose: async () => ((signedIn = true), "own") }));
    try {
      await agent.started;
      agent.bridge.receive({ type: "prompt", id: "p", message: "hi" });
      for (let i = 0; i < 200 && !agent.frames.some((f) => f.type === "agent_settled"); i++) await new Promise((r) => setTimeout(r, 10));
      assert.equal(agent.seen.prompts, 2);
      assert.deepEqual(agent.seen.authenticate.map((a) => a.methodId), ["own"]);
      const end = agent.frames.find((f) => f.type === "agent_end") as { messages: { role: string; stopReason?: string }[] } | undefined;
      assert.ok(end, "the turn ended");
      assert.ok(!end.messages.some((m) => m.stopReason === "error"), "not as an error");
    } finally {
      agent.cleanup();
    }
  });

  it("Abort while the user signs in at a prompt: the prompt is not sent again, the turn ends aborted", async () => {
    let release: () => void = () => undefined;
    const agent = await start({ methods: [{ id: "own", name: "Own" }], refuses: () => false, refusesPrompt: () => true }, noUi({ choose: () => new Promise((resolve) => (release = () => resolve("own"))) }));
    try {
      await agent.started;
      agent.bridge.receive({ type: "prompt", id: "p", message: "hi" });
      for (let i = 0; i < 100 && agent.seen.prompts === 0; i++) await new Promise((r) => setTimeout(r, 10));
      agent.bridge.receive({ type: "abort", id: "a" });
      await new Promise((r) => setTimeout(r, 50));
      release();
      for (let i = 0; i < 200 && !agent.frames.some((f) => f.type === "agent_settled"); i++) await new Promise((r) => setTimeout(r, 10));
      assert.equal(agent.seen.prompts, 1, "not sent again after the abort");
      assert.deepEqual(agent.frames.find((f) => f.type === "agent_settled"), { type: "agent_settled", aborted: true });
    } finally {
      agent.cleanup();
    }
  });

  it("a gateway sign-in is remembered: the agent's next start is signed in through the gateway before session/new, without asking (gemini records the choice and does not ask again); signed out, it is forgotten", async () => {
    const memory = new Map<string, string>();
    const signInMemory: SignInMemory = { chosen: (agent) => memory.get(agent), remember: (agent, methodId) => void (methodId ? memory.set(agent, methodId) : memory.delete(agent)) };
    let recorded = false; // the agent's own record of the method chosen (gemini's settings.json), across its processes
    const methods = [{ id: "gateway", name: "Gateway", _meta: { gateway: { protocol: "google" } } }];
    const route = { baseUrl: "http://127.0.0.1:1/google", token: "tok" };
    let asked = 0;
    const ui = noUi({ choose: async () => (asked++, "gateway"), gateway: async () => ((recorded = true), route) });
    const first = await start({ methods, refuses: () => !recorded }, ui, { signInMemory });
    try {
      await first.started;
      assert.equal(asked, 1);
    } finally {
      first.cleanup();
    }
    const second = await start({ methods, refuses: () => !recorded }, ui, { signInMemory });
    try {
      await second.started;
      assert.equal(asked, 1, "not asked again");
      assert.deepEqual(second.seen.authenticate, [{ methodId: "gateway", _meta: { "api-key": "tok", gateway: { baseUrl: route.baseUrl } } }], "the new process got the gateway's address and token");
      assert.equal((await second.bridge.signOut()).given?.kind, "gateway");
      assert.equal(memory.size, 0, "forgotten at sign-out");
    } finally {
      second.cleanup();
    }
  });

  describe("sign-out", () => {
    it("an agent that declares auth.logout: Sign Out sends logout; the next prompt it refuses asks to sign in again", async () => {
      let signedIn = false;
      let asked = 0;
      const agent = await start(
        { methods: [{ id: "own", name: "Own" }], refuses: () => !signedIn, refusesPrompt: () => !signedIn, logout: () => (signedIn = false) },
        noUi({ choose: async () => (asked++, (signedIn = true), "own") }),
      );
      try {
        await agent.started;
        assert.equal(asked, 1);
        const result = await agent.bridge.signOut();
        assert.deepEqual(result, { agentName: "test agent", loggedOut: true, given: { kind: "agent", method: "Own" } });
        assert.equal(agent.seen.logout, 1);
        agent.bridge.receive({ type: "prompt", id: "p", message: "hi" });
        for (let i = 0; i < 200 && !agent.frames.some((f) => f.type === "agent_settled"); i++) await new Promise((r) => setTimeout(r, 10));
        assert.equal(asked, 2, "asked to sign in again");
        assert.equal(agent.seen.prompts, 2);
      } finally {
        agent.cleanup();
      }
    });

    it("an agent that does not declare it: no logout is sent (the spec forbids it); what the editor gave it this run is reported", async () => {
      let signedIn = false;
      const agent = await start({ methods: [{ id: "gw", name: "Gateway", _meta: { gateway: { protocol: "google" } } }], refuses: () => !signedIn }, noUi({ choose: async () => "gw", gateway: async () => ((signedIn = true), { baseUrl: "http://127.0.0.1:1/google", token: "tok" }) }));
      try {
        await agent.started;
        assert.deepEqual(await agent.bridge.signOut(), { agentName: "test agent", loggedOut: false, given: { kind: "gateway", method: "Gateway", variable: "GEMINI_API_KEY" } });
        assert.equal(agent.seen.logout, 0);
      } finally {
        agent.cleanup();
      }
      const untouched = await start({ methods: [], refuses: () => false }, undefined);
      try {
        await untouched.started;
        assert.deepEqual(await untouched.bridge.signOut(), { agentName: "test agent", loggedOut: false });
      } finally {
        untouched.cleanup();
      }
    });
  });
});
