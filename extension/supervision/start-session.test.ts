import { strict as assert } from "node:assert";
import { StartSessions } from "./start-session";

const exists = (files: string[]) => (file: string) => files.includes(file);

describe("StartSessions: which session each start of an agent opens", () => {
  it("opens the session it was given at the first start only, as the user's choice", () => {
    const sessions = new StartSessions("/elsewhere/a.jsonl", exists(["/elsewhere/a.jsonl"]));
    assert.deepEqual(sessions.next("pi", undefined), { recovery: undefined, sessionFile: "/elsewhere/a.jsonl", chosen: "/elsewhere/a.jsonl", replaced: false });
    assert.deepEqual(sessions.next("pi", undefined), { recovery: undefined, sessionFile: undefined, chosen: undefined, replaced: false });
  });

  it("reopens the session a restart kept, never as a choice of the user's", () => {
    const sessions = new StartSessions("/given.jsonl", exists(["/given.jsonl", "/kept.jsonl"]));
    const kept = { sessionFile: "/kept.jsonl", queue: [] };
    assert.deepEqual(sessions.next("pi", kept), { recovery: kept, sessionFile: "/kept.jsonl", chosen: undefined, replaced: false });
  });

  it("opens no file that is gone", () => {
    const sessions = new StartSessions("/gone.jsonl", exists([]));
    assert.equal(sessions.next("pi", undefined).sessionFile, undefined);
  });

  it("another agent opens none of the last agent's sessions and keeps only its undelivered queue", () => {
    const sessions = new StartSessions(undefined, exists(["/kept.jsonl"]));
    sessions.next("pi", undefined);
    const kept = { sessionFile: "/kept.jsonl", model: { provider: "a", id: "b" }, queue: ["typed, never sent"] };
    assert.deepEqual(sessions.next("omp", kept), { recovery: { queue: ["typed, never sent"] }, sessionFile: undefined, chosen: undefined, replaced: true });
    assert.equal(sessions.next("omp", { sessionFile: "/kept.jsonl", queue: [] }).replaced, false, "the same agent again");
    assert.equal(sessions.next("pi", { sessionFile: "/kept.jsonl", queue: [] }).recovery, undefined, "nothing queued: nothing goes on");
  });
});
