/**
 * Generators of malformed JSONL frames (and valid ones to interleave), deterministic per seed,
 * for the reliability tests in both directions.
 */
export function prng(seed: number): () => number {
  let s = seed >>> 0;
  return () => {
    s = (s + 0x6d2b79f5) >>> 0;
    let t = s;
    t = Math.imul(t ^ (t >>> 15), t | 1);
    t ^= t + Math.imul(t ^ (t >>> 7), t | 61);
    return ((t ^ (t >>> 14)) >>> 0) / 2 ** 32;
  };
}

export interface FuzzFrame {
  kind: string;
  /** Raw bytes to write, ending with LF. */
  bytes: Buffer;
  /** The id of a valid frame that must be answered. */
  validId?: string;
}

const line = (text: string) => Buffer.from(`${text}\n`, "utf8");

function deep(depth: number): string {
  return "[".repeat(depth) + "]".repeat(depth);
}

/** Frames a client might wrongly send to an agent: none of them may start work. */
export function badCommandFrames(random: () => number, n: number): FuzzFrame {
  const pick = <T>(items: T[]) => items[Math.floor(random() * items.length)];
  const id = `bad${n}`;
  const makers: [string, () => Buffer][] = [
    ["invalid JSON", () => line(pick(['{"type":"get_state"', "{type:'get_state'}", "not json", '{"id":"x",}', "\u0000\u0001", "{" + "x".repeat(100) ]))],
    ["not an object", () => line(pick(["42", '"get_state"', "[1,2,3]", "null", "true"]))],
    ["no type", () => line(JSON.stringify({ id, message: "hi" }))],
    ["unknown type", () => line(JSON.stringify({ id, type: `no_such_${n}` }))],
    ["wrong field type", () => line(JSON.stringify(pick([
      { id, type: "prompt", message: 123 },
      { id, type: "set_model", provider: ["x"], modelId: {} },
      { id, type: "set_thinking_level", level: "ultra" },
      { id, type: "set_steering_mode", mode: 7 },
      { id, type: "bash", command: null },
      { id, type: "fork", entryId: 5 },
      { id, type: "prompt", message: "x", images: [{ type: "image" }] },
      { id, type: "prompt", message: "x", streamingBehavior: "later" },
    ])))],
    ["missing field", () => line(JSON.stringify(pick([{ id, type: "prompt" }, { id, type: "set_model", provider: "x" }, { id, type: "switch_session" }, { id, type: "set_session_name" }])))],
    ["numeric id", () => line(JSON.stringify({ id: n, type: "get_state" }))],
    ["huge string in a wrong field", () => line(JSON.stringify({ id, type: "set_thinking_level", level: "x".repeat(200_000 + Math.floor(random() * 100_000)) }))],
    ["deep nesting", () => line(`{"id":"${id}","type":"set_session_name","name":${deep(2_000 + Math.floor(random() * 20_000))}}`)],
    ["line separators in a bad frame", () => line(`{"id":"${id}","type":"set_steering_mode","mode":"a\u2028b\u2029c"}`)],
    ["invalid UTF-8", () => Buffer.concat([Buffer.from(`{"id":"${id}","type":"set_follow_up_mode","mode":"`), Buffer.from([0xff, 0xfe, 0xc3]), Buffer.from('"}\n')])],
  ];
  const [kind, make] = pick(makers);
  return { kind, bytes: make() };
}

/** A valid query that must be answered, sometimes with U+2028/2029 and multi-byte text in its id. */
export function validQuery(random: () => number, n: number): FuzzFrame {
  const id = random() < 0.3 ? `v${n}\u2028\u2029🙂` : `v${n}`;
  const type = ["get_state", "get_last_assistant_text", "get_session_stats", "get_messages"][Math.floor(random() * 4)];
  return { kind: "valid", bytes: line(JSON.stringify({ id, type })), validId: id };
}
