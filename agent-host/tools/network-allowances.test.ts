import { strict as assert } from "node:assert";
import { ALLOW_HOST, DENY_HOST, MAX_OPEN, NetworkAllowances } from "./network-allowances";

describe("sandbox network: hosts allowed when asked", () => {
  it("asks once per host and port for the session, remembers allow and deny, and asks again in a new session", async () => {
    const titles: string[] = [];
    let generation = 1;
    let reply: string | undefined = ALLOW_HOST;
    const allowances = new NetworkAllowances((title) => (titles.push(title), Promise.resolve(reply)), () => generation);
    assert.equal(await allowances.decide({ host: "example.com", port: 443 }), true);
    assert.equal(await allowances.decide({ host: "example.com", port: 443 }), true);
    assert.equal(titles.length, 1, "remembered");
    assert.match(titles[0], /^Allow network access to example\.com:443 for this session\?/);
    reply = DENY_HOST;
    assert.equal(await allowances.decide({ host: "example.com", port: 80 }), false, "another port is another question");
    assert.equal(await allowances.decide({ host: "example.com", port: 80 }), false);
    assert.equal(titles.length, 2, "a deny is remembered too");
    generation = 2;
    reply = DENY_HOST;
    assert.equal(await allowances.decide({ host: "example.com", port: 443 }), false, "a new session asks again");
    assert.equal(titles.length, 3);
  });

  it("shares one open question between requests, refuses without an answer and does not remember that", async () => {
    const pending: ((v: string | undefined) => void)[] = [];
    const allowances = new NetworkAllowances(() => new Promise((resolve) => pending.push(resolve)), () => 1);
    const both = [allowances.decide({ host: "a.test", port: 1 }), allowances.decide({ host: "a.test", port: 1 })];
    await new Promise((r) => setImmediate(r));
    assert.equal(pending.length, 1, "one question for both");
    pending[0](undefined);
    assert.deepEqual(await Promise.all(both), [false, false], "no answer (no client, cancelled): refused");
    const again = allowances.decide({ host: "a.test", port: 1 });
    await new Promise((r) => setImmediate(r));
    assert.equal(pending.length, 2, "asked again");
    pending[1](ALLOW_HOST);
    assert.equal(await again, true);
  });

  it("says when a literal address is on this machine or its network", async () => {
    const titles: string[] = [];
    const allowances = new NetworkAllowances((title) => (titles.push(title), Promise.resolve(DENY_HOST)), () => 1);
    await allowances.decide({ host: "127.0.0.1", port: 5432 });
    await allowances.decide({ host: "[::1]", port: 5432 });
    await allowances.decide({ host: "example.com", port: 443 });
    assert.match(titles[0], /on this machine or its private network/);
    assert.match(titles[1], /on this machine or its private network/);
    assert.doesNotMatch(titles[2], /this machine/);
  });

  it("keeps at most a few questions open: a flood of hosts is refused, not asked", async () => {
    const pending: ((v: string | undefined) => void)[] = [];
    const allowances = new NetworkAllowances(() => new Promise((resolve) => pending.push(resolve)), () => 1);
    const flood = Array.from({ length: 50 }, (_, i) => allowances.decide({ host: `h${i}.example`, port: 443 }));
    await new Promise((r) => setImmediate(r));
    assert.equal(pending.length, MAX_OPEN);
    for (const answer of pending) answer(ALLOW_HOST);
    const results = await Promise.all(flood);
    assert.equal(results.filter(Boolean).length, MAX_OPEN, "only the questions asked could allow");
    const after = allowances.decide({ host: "later.example", port: 443 });
    await new Promise((r) => setImmediate(r));
    assert.equal(pending.length, MAX_OPEN + 1, "asked again once the questions are answered");
    pending[MAX_OPEN](DENY_HOST);
    assert.equal(await after, false);
  });
});
