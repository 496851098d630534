/**
 * Extension-UI requests of a real pi extension (test/fixtures/extensions/ui-dialogs.ts, loaded
 * with -e) answered through the RpcClient's dialog and notice handlers, against each peer.
 */
import { strict as assert } from "node:assert";
import type { CancellationToken } from "vscode-jsonrpc";
import type { DialogAnswer, DialogRequest, ExtensionUiRequest, UiNotice } from "../../shared/protocol";
import type { DialogOutcome } from "../../shared/rpc";
import { startMockLlm, type MockLlm } from "../support/mock-llm";
import { PEER_KINDS, peerVersion } from "../support/peers";
import { assertCleanProtocol, assertStopsCleanly, startPeerClient, UI_FIXTURE, type PeerClient } from "./peer-client";

interface OpenDialog {
  request: DialogRequest;
  token: CancellationToken;
  cancelled: boolean;
  /** Answers a dialog the test holds open. */
  release(answer: DialogAnswer): void;
}

/** What the user "types" into each dialog of /ui-demo, by title. */
const demoAnswers: Record<string, DialogAnswer> = {
  "Pick a color": { value: "green" },
  "Proceed?": { confirmed: true },
  "Your name": { value: "Ada" },
  "Edit text": { value: "edited text" },
};

// Our host ("host") must behave as pi 0.87.1 does.
for (const kind of [...PEER_KINDS, "host"] as const) {
  describe(`extension UI requests from ${kind} ${peerVersion(kind)}`, function () {
    let llm: MockLlm;
    let peer: PeerClient;
    const dialogs: OpenDialog[] = [];
    const notices: UiNotice[] = [];
    const uiRequests: ExtensionUiRequest[] = [];
    const outcomes: { request: DialogRequest; outcome: DialogOutcome }[] = [];
    const waiters = new Set<() => void>();
    const poke = (): void => waiters.forEach((w) => w());

    /** Resolves when `check` returns something, re-checked whenever a handler was called. */
    function until<T>(check: () => T | undefined, what: string, timeoutMs = 30_000): Promise<T> {
      return new Promise((resolve, reject) => {
        const tick = (): void => {
          const value = check();
          if (value === undefined) return;
          waiters.delete(tick);
          clearTimeout(timer);
          resolve(value);
        };
        const timer = setTimeout(() => {
          waiters.delete(tick);
          reject(new Error(`${kind}: ${what} did not happen within ${timeoutMs} ms; notices: ${JSON.stringify(notices).slice(0, 800)}`));
        }, timeoutMs);
        waiters.add(tick);
        tick();
      });
    }

    const notice = (method: UiNotice["method"], match: (n: UiNotice) => boolean = () => true) =>
      until(() => notices.find((n) => n.method === method && match(n)), `a ${method} notice`);
    const dialog = (title: string) => until(() => dialogs.find((d) => d.request.title === title), `the dialog "${title}"`);
    const outcomeOf = (id: string) => until(() => outcomes.find((o) => o.request.id === id)?.outcome, `the outcome of dialog ${id}`);
    const responsesTo = (id: string) => peer.sent.filter((f) => f.type === "extension_ui_response" && f.id === id);
    const isNotify = (prefix: string) => (n: UiNotice) => n.method === "notify" && n.message.startsWith(prefix);

    /** Sends a prompt and waits for its response (and, on omp, its prompt_result). */
    async function prompt(message: string): Promise<void> {
      const from = peer.received.length;
      await peer.client.request("prompt", { message });
      const sent = [...peer.sent].reverse().find((f) => f.type === "prompt" && f.message === message);
      if (kind === "omp") {
        // omp answers at once and reports the extension command's end in a frame of its own.
        const result = await peer.waitForFrame((f) => f.type === "prompt_result" && f.id === sent?.id, from);
        assert.equal(result.agentInvoked, false);
      }
    }

    before(async function () {
      llm = await startMockLlm();
      peer = startPeerClient(kind, llm, { extensions: [UI_FIXTURE] });
      peer.client.onUiRequest((request) => (uiRequests.push(request), poke()));
      peer.client.onDialogOutcome((o) => (outcomes.push(o), poke()));
      peer.client.setNoticeHandler((n) => (notices.push(n), poke()));
      peer.client.setDialogHandler((request, token) => {
        const answer = demoAnswers[request.title];
        return new Promise<DialogAnswer>((resolve) => {
          const open: OpenDialog = { request, token, cancelled: false, release: resolve };
          dialogs.push(open);
          // A held dialog answers late when cancelled: that answer must not be sent.
          token.onCancellationRequested(() => {
            open.cancelled = true;
            resolve(request.method === "confirm" ? { confirmed: true } : { value: "late" });
          });
          if (answer) resolve(answer);
          poke();
        });
      });
      await peer.client.probe();
    });

    after(async function () {
      await peer?.stop();
      await llm?.close();
    });

    it("/ui-demo: the dialog handler answers select, confirm, input and editor; notices reach the notice handler", async function () {
      await prompt("/ui-demo");
      await notice("set_editor_text");

      const demo = dialogs.filter((d) => d.request.title in demoAnswers);
      assert.deepEqual(
        demo.map(({ request: { type, id: _id, ...rest } }) => rest),
        [
          { method: "select", title: "Pick a color", options: ["red", "green", "blue"] },
          { method: "confirm", title: "Proceed?", message: "Really proceed?" },
          { method: "input", title: "Your name", placeholder: "type here" },
          { method: "editor", title: "Edit text", prefill: "prefill" },
        ],
      );
      for (const d of demo) {
        assert.equal(d.cancelled, false, d.request.title);
        assert.deepEqual(await outcomeOf(d.request.id), demoAnswers[d.request.title]);
        assert.deepEqual(responsesTo(d.request.id), [{ type: "extension_ui_response", id: d.request.id, ...demoAnswers[d.request.title] }]);
      }

      // The summary proves the agent received each answer.
      const [notify] = notices.filter(isNotify("color="));
      assert.deepEqual(
        notify && { method: notify.method, message: notify.method === "notify" && notify.message, notifyType: notify.method === "notify" && notify.notifyType },
        { method: "notify", message: 'color="green" proceed=true name="Ada" text="edited text"', notifyType: "info" },
      );
      const strip = ({ type: _t, id: _i, ...rest }: UiNotice) => rest;
      assert.deepEqual(notices.filter((n) => n.method === "setStatus").map(strip), [{ method: "setStatus", statusKey: "demo", statusText: "ok" }]);
      assert.deepEqual(
        notices.filter((n) => n.method === "setWidget" && n.widgetKey === "demo").map(strip),
        [{ method: "setWidget", widgetKey: "demo", widgetLines: ["line1"] }],
      );
      assert.deepEqual(notices.filter((n) => n.method === "set_editor_text").map(strip), [{ method: "set_editor_text", text: "from extension" }]);
      // Notices get no answer; every request also went through onUiRequest.
      for (const n of notices) assert.deepEqual(responsesTo(n.id), []);
      for (const r of [...demo.map((d) => d.request), ...notices]) assert.ok(uiRequests.includes(r), r.method);
    });

    it("/ui-timeout: the client expires the dialog itself and sends no answer", async function () {
      const done = prompt("/ui-timeout");
      const held = await dialog("Quick, pick one");
      assert.equal(held.request.method, "select");
      assert.equal((held.request as { timeout?: number }).timeout, 300);
      assert.deepEqual(await outcomeOf(held.request.id), { expired: true });
      assert.equal(held.cancelled, true, "the handler's token was cancelled");
      // The agent resolved its default (undefined) itself.
      const notify = await notice("notify", isNotify("timeout:"));
      assert.equal(notify.method === "notify" && notify.message, "timeout: undefined");
      await done;
      await peer.client.request("get_state", {});
      assert.deepEqual(responsesTo(held.request.id), [], "a late answer was sent");
    });

    it(`/ui-abort: ${kind === "omp" ? "omp's cancel request cancels the open dialog" : "pi withdraws the dialog without telling the client"}`, async function () {
      const done = prompt("/ui-abort");
      const held = await dialog("Abort me");
      assert.equal(held.request.method, "confirm");
      const notify = await notice("notify", isNotify("abort:"));
      assert.equal(notify.method === "notify" && notify.message, "abort: false");
      const cancels = uiRequests.filter((r) => r.method === "cancel");
      if (kind === "omp") {
        assert.deepEqual(cancels.map((c) => c.method === "cancel" && c.targetId), [held.request.id]);
        assert.equal(held.cancelled, true, "the cancel request cancelled the handler's token");
        assert.deepEqual(await outcomeOf(held.request.id), { expired: true });
        await done;
        await peer.client.request("get_state", {});
        assert.deepEqual(responsesTo(held.request.id), [], "an answer to a withdrawn dialog was sent");
      } else {
        // Pi resolves the aborted dialog itself and sends nothing: the client's dialog stays open
        // until the user answers; the late answer is sent and ignored by the agent.
        assert.deepEqual(cancels, []);
        await done;
        assert.equal(held.cancelled, false);
        held.release({ cancelled: true });
        assert.deepEqual(await outcomeOf(held.request.id), { cancelled: true });
        await peer.client.request("get_state", {});
        assert.deepEqual(responsesTo(held.request.id), [{ type: "extension_ui_response", id: held.request.id, cancelled: true }]);
      }
    });

    it("wrote only frames that pass checkOutbound", function () {
      assertCleanProtocol(peer);
      if (kind === "omp") assert.ok(peer.unknownTypes.includes("prompt_result"));
    });

    it("exits with code 0 when its input ends", async function () {
      await assertStopsCleanly(peer);
    });
  });
}
