/**
 * Sign-in (ACP `authenticate`) with the real gemini-cli, offline on the scripted Google server:
 * started with its key method chosen but no key, gemini answers initialize with its authMethods and
 * session/new with "authentication required" (-32000). Our client offers the methods (the
 * editor's quick pick is the SignInUi here). Its `gateway` method is pointed at our model gateway
 * (the real gateway server, upstream the mock): gemini gets the gateway's URL and token, never the
 * key, which the gateway puts on each request. Its `gemini-api-key` method takes the stored key in
 * authenticate's `_meta["api-key"]`, as gemini documents: over its ACP channel, never in its
 * arguments, its environment or a file. Either way the key reaches the model server, and the
 * agent's environ, cmdline and files hold none of it.
 */
import { strict as assert } from "node:assert";
import * as fs from "node:fs";
import * as os from "node:os";
import * as path from "node:path";
import type { AcpFileServices } from "../../extension/acp/acp-bridge";
import type { SignInMethod } from "../../extension/acp/acp-auth";
import type { SignInUi } from "../../extension/acp/acp-sign-in";
import { startAcpPeer, type AcpPeer } from "../support/acp-agents";
import { startMockGoogle, type MockGoogle } from "../support/mock-google";
import { startGatewayServer } from "../../extension/gateway/gateway-server";

const KEY = `AIza-test-${Math.random().toString(36).slice(2)}-stored-key`;

function filesHolding(dir: string, needle: string): string[] {
  const found: string[] = [];
  const walk = (at: string) => {
    for (const entry of fs.readdirSync(at, { withFileTypes: true })) {
      const full = path.join(at, entry.name);
      if (entry.isDirectory()) walk(full);
      else if (entry.isFile() && fs.readFileSync(full).includes(needle)) found.push(full);
    }
  };
  if (fs.existsSync(dir)) walk(dir);
  return found;
}

describe("ACP sign-in with the real gemini-cli (offline)", function () {
  this.timeout(120_000);
  let google: MockGoogle;
  let cwd: string;
  let peer: AcpPeer | undefined;
  const files: AcpFileServices = { readTextFile: async (file) => (fs.existsSync(file) ? fs.readFileSync(file, "utf8") : ""), writeTextFile: async (file, content) => fs.writeFileSync(file, content) };

  beforeEach(async () => {
    google = await startMockGoogle(() => ({ text: ["Signed ", "in."] }));
    cwd = fs.mkdtempSync(path.join(os.tmpdir(), "acp-gemini-auth-cwd-"));
    peer = undefined;
  });

  afterEach(async () => {
    await peer?.stop();
    await google.close();
    fs.rmSync(cwd, { recursive: true, force: true });
  });

  it("the gateway method through our model gateway: gemini gets its URL and token, never the key; the key reaches the model server on every request", async () => {
    const gateway = await startGatewayServer([{ name: "google", upstream: google.baseUrl, key: async () => KEY }]);
    try {
      const asked: (readonly SignInMethod[])[] = [];
      const ui: SignInUi = {
        choose: async (_name, _reason, methods) => (asked.push(methods), "gateway"),
        apiKey: async () => assert.fail("the key is not read for the gateway: the gateway reads it"),
        gateway: async (variable) => (variable === "GEMINI_API_KEY" ? { baseUrl: `${gateway.url}/google`, token: gateway.routeToken("google")! } : undefined),
        runInTerminal: async () => assert.fail("no terminal"),
      };
      peer = await startAcpPeer("gemini", "http://127.0.0.1:9/unused", cwd, files, { signedOut: true, signIn: ui });
      assert.deepEqual(asked[0]!.find((m) => m.id === "gateway"), { kind: "gateway", id: "gateway", name: "AI API Gateway", description: "Use a custom AI API Gateway", provider: "google", variable: "GEMINI_API_KEY" });
      // Keys stay out of agents: gemini's method that takes the key itself is not offered where the gateway serves Google.
      assert.deepEqual(asked[0]!.map((m) => [m.id, m.kind]), [["oauth-personal", "agent"], ["vertex-ai", "agent"], ["gateway", "gateway"]]);
      await peer.client.request("prompt", { message: "hello" });
      await peer.client.waitForSettled(60_000);
      const text = peer.events.flatMap((e) => (e.type === "message_update" && e.assistantMessageEvent.type === "text_delta" ? [e.assistantMessageEvent.delta] : [])).join("");
      assert.equal(text, "Signed in.");
      const generate = google.requests.filter((r) => r.path.includes("generateContent"));
      assert.ok(generate.length > 0, "the requests went through the gateway to the model server");
      for (const request of generate) assert.equal(request.headers["x-goog-api-key"], KEY, "the gateway put the stored key on it");
      const pid = peer.transport.pid!;
      for (const secret of [KEY, gateway.token, gateway.routeToken("google")!]) {
        assert.ok(!fs.readFileSync(`/proc/${pid}/environ`).includes(secret), "not in the agent's environment");
        assert.ok(!fs.readFileSync(`/proc/${pid}/cmdline`).includes(secret), "not in its argument list");
        assert.deepEqual(filesHolding(peer.home, secret), [], "not in a file of its HOME");
        assert.deepEqual(filesHolding(cwd, secret), [], "not in a file of its folder");
      }
    } finally {
      await gateway.close();
    }
  });

  it("declined: the start fails with gemini's own error; no authenticate is sent", async () => {
    const ui: SignInUi = { choose: async () => undefined, apiKey: async () => assert.fail("no key is read when nothing is chosen"), gateway: async () => assert.fail("no gateway"), runInTerminal: async () => assert.fail("no terminal") };
    await assert.rejects(startAcpPeer("gemini", google.baseUrl, cwd, files, { signedOut: true, signIn: ui }), /API key is missing|Authentication required/i);
    assert.equal(google.requests.filter((r) => r.path.includes("generateContent")).length, 0);
  });

  it("no key stored: the start fails saying which key to store and how", async () => {
    const ui: SignInUi = { choose: async () => "gateway", apiKey: async () => assert.fail("the key is not read for the gateway"), gateway: async () => undefined, runInTerminal: async () => assert.fail("no terminal") };
    await assert.rejects(startAcpPeer("gemini", google.baseUrl, cwd, files, { signedOut: true, signIn: ui }), /No GEMINI_API_KEY is stored: run "Pi: Set API Key"/);
  });
});
