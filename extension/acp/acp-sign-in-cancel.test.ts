/**
 * Sign-in cancelled while the user is in it (Abort, New Session, the bridge disposed, the agent
 * exiting): the pick, the confirmation and the terminal wait close and the call fails at once.
 */
import { strict as assert } from "node:assert";
import { noUi, start } from "./acp-sign-in.testkit";

describe("ACP sign-in cancelled while the user signs in: the pick, the confirmation and the terminal wait close, the call fails at once", function () {
  this.timeout(20_000);
  /** A UI whose pick (or terminal) stays open until its signal aborts; records what was closed. */
  function openUntilClosed(kind: "pick" | "terminal") {
    const closed: string[] = [];
    let opened: () => void = () => undefined;
    const open = new Promise<void>((resolve) => (opened = resolve));
    const waitForClose = <T>(what: string, signal: AbortSignal | undefined): Promise<T> =>
      new Promise<T>(() => {
        opened();
        signal?.addEventListener("abort", () => closed.push(what));
      });
    const ui = noUi(
      kind === "pick"
        ? { choose: (_n, _r, _m, signal) => waitForClose("pick", signal) }
        : { choose: async (_n, _r, methods) => methods[0]!.id, runInTerminal: (_n, _m, signal) => waitForClose("terminal", signal) },
    );
    return { ui, closed, open };
  }
  const within = <T>(ms: number, what: string, promise: Promise<T>): Promise<T> =>
    Promise.race([promise, new Promise<never>((_r, reject) => setTimeout(() => reject(new Error(`${what}: still waiting after ${ms} ms`)), ms))]);
  const settled = async (frames: Record<string, unknown>[]) => {
    for (let i = 0; i < 100 && !frames.some((f) => f.type === "agent_settled"); i++) await new Promise((r) => setTimeout(r, 10));
    return frames.find((f) => f.type === "agent_settled");
  };

  it("Abort while the pick is open at a prompt: the pick is closed, the turn ends aborted at once, the prompt is not sent again, and the chat can prompt again", async () => {
    const { ui, closed, open } = openUntilClosed("pick");
    let refuse = true;
    const agent = await start({ methods: [{ id: "own", name: "Own" }], refuses: () => false, refusesPrompt: () => refuse }, ui);
    try {
      await agent.started;
      agent.bridge.receive({ type: "prompt", id: "p", message: "hi" });
      await within(2000, "the pick", open);
      agent.bridge.receive({ type: "abort", id: "a" });
      assert.deepEqual(await settled(agent.frames), { type: "agent_settled", aborted: true }, "the turn ended aborted without the user answering");
      assert.deepEqual(closed, ["pick"]);
      assert.equal(agent.seen.prompts, 1);
      const abortAnswer = agent.frames.find((f) => f.type === "response" && f.id === "a");
      assert.equal(abortAnswer?.success, true, "Abort answered");
      refuse = false;
      agent.frames.length = 0;
      agent.bridge.receive({ type: "prompt", id: "p2", message: "again" });
      assert.deepEqual(await settled(agent.frames), { type: "agent_settled" }, "idle: the next prompt runs");
      assert.equal(agent.seen.prompts, 2);
    } finally {
      agent.cleanup();
    }
  });

  it("New Session while the pick is open at a prompt: the pick is closed, the turn ends aborted, the new session opens", async () => {
    const { ui, closed, open } = openUntilClosed("pick");
    const agent = await start({ methods: [{ id: "own", name: "Own" }], refuses: () => false, refusesPrompt: () => true }, ui);
    try {
      await agent.started;
      agent.bridge.receive({ type: "prompt", id: "p", message: "hi" });
      await within(2000, "the pick", open);
      agent.bridge.receive({ type: "new_session", id: "n" });
      await within(2000, "New Session", (async () => {
        while (!agent.frames.some((f) => f.type === "response" && f.id === "n")) await new Promise((r) => setTimeout(r, 10));
      })());
      assert.equal(agent.frames.find((f) => f.type === "response" && f.id === "n")?.success, true);
      assert.deepEqual(agent.frames.find((f) => f.type === "agent_settled"), { type: "agent_settled", aborted: true });
      assert.deepEqual(closed, ["pick"]);
      assert.equal(agent.seen.sessionNew, 2);
    } finally {
      agent.cleanup();
    }
  });

  it("Abort before the agent says sign in is required (its prompt refused after the cancel): no pick opens, the turn ends aborted", async () => {
    let asked = 0;
    const agent = await start({ methods: [{ id: "own", name: "Own" }], refuses: () => false, refusesAfterCancel: true }, noUi({ choose: async () => (asked++, "own") }));
    try {
      await agent.started;
      agent.bridge.receive({ type: "prompt", id: "p", message: "hi" });
      for (let i = 0; i < 100 && agent.seen.prompts === 0; i++) await new Promise((r) => setTimeout(r, 10));
      agent.bridge.receive({ type: "abort", id: "a" });
      assert.deepEqual(await settled(agent.frames), { type: "agent_settled", aborted: true });
      assert.equal(asked, 0, "no sign-in for a turn the user aborted");
      assert.equal(agent.seen.prompts, 1);
    } finally {
      agent.cleanup();
    }
  });

  it("Abort while a terminal sign-in runs: the terminal wait is closed, the turn ends aborted, nothing sent again", async () => {
    const { ui, closed, open } = openUntilClosed("terminal");
    const agent = await start({ methods: [{ id: "login", name: "Log in", type: "terminal", args: ["--login"] }], refuses: () => false, refusesPrompt: () => true }, ui);
    try {
      await agent.started;
      agent.bridge.receive({ type: "prompt", id: "p", message: "hi" });
      await within(2000, "the terminal", open);
      agent.bridge.receive({ type: "abort", id: "a" });
      assert.deepEqual(await settled(agent.frames), { type: "agent_settled", aborted: true });
      assert.deepEqual(closed, ["terminal"]);
      assert.equal(agent.seen.prompts, 1);
      assert.deepEqual(agent.seen.authenticate, []);
    } finally {
      agent.cleanup();
    }
  });

  it("the session closing (the bridge disposed: Stop, Restart, the window closing) while the pick is open at start: the pick is closed, the start fails saying so", async () => {
    const { ui, closed, open } = openUntilClosed("pick");
    const agent = await start({ methods: [{ id: "own", name: "Own" }], refuses: () => true }, ui);
    try {
      await within(2000, "the pick", open);
      agent.bridge.dispose();
      await within(2000, "the start", assert.rejects(agent.started, /sign-in .*cancelled/i));
      assert.deepEqual(closed, ["pick"]);
      assert.equal(agent.seen.sessionNew, 1, "not asked again");
    } finally {
      agent.cleanup();
    }
  });

  it("the agent exiting (its connection ends) while the pick is open at start: the pick is closed, the start fails", async () => {
    const { ui, closed, open } = openUntilClosed("pick");
    const agent = await start({ methods: [{ id: "own", name: "Own" }], refuses: () => true }, ui);
    try {
      await within(2000, "the pick", open);
      agent.endAgentOutput();
      await within(2000, "the start", assert.rejects(agent.started));
      assert.deepEqual(closed, ["pick"]);
    } finally {
      agent.cleanup();
    }
  });

  it("Abort while the start's pick is open: the pick is closed and the start fails (the chat's Abort does not wait for the user)", async () => {
    const { ui, closed, open } = openUntilClosed("pick");
    const agent = await start({ methods: [{ id: "own", name: "Own" }], refuses: () => true }, ui);
    try {
      await within(2000, "the pick", open);
      agent.bridge.receive({ type: "abort", id: "a" });
      await within(2000, "the start", assert.rejects(agent.started, /sign-in .*cancelled/i));
      assert.deepEqual(closed, ["pick"]);
    } finally {
      agent.cleanup();
    }
  });

  it("a UI that ignores the signal: the call still fails at once, and its late answer runs nothing", async () => {
    let answer: (id: string) => void = () => undefined;
    const ran: string[] = [];
    const agent = await start(
      { methods: [{ id: "login", name: "Log in", type: "terminal", args: ["--login"] }], refuses: () => true },
      noUi({ choose: () => new Promise((resolve) => (answer = resolve)), runInTerminal: async () => (ran.push("terminal"), 0) }),
    );
    try {
      for (let i = 0; i < 100 && agent.seen.sessionNew === 0; i++) await new Promise((r) => setTimeout(r, 10));
      await new Promise((r) => setTimeout(r, 50));
      agent.bridge.dispose();
      await within(2000, "the start", assert.rejects(agent.started, /sign-in .*cancelled/i));
      answer("login");
      await new Promise((r) => setTimeout(r, 100));
      assert.deepEqual(ran, [], "no terminal for a session that is gone");
    } finally {
      agent.cleanup();
    }
  });
});
