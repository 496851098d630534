import { strict as assert } from "node:assert";
import { Type } from "@sinclair/typebox";
import { createAjv, validatorOptions } from "../protocol/ajv";
import { checkForeign, mayHoldForbiddenKey, parseForeignFrame, parseForeignJson, toInertData, type SchemaValidator } from ".";
import { assertNoForbiddenKeys, assertPrototypePristine, objectsIn } from "../../test/support/inert";

function pristine(): void {
  assertPrototypePristine();
  for (const key of ["polluted", "httpProxy", "isAdmin", "shell"]) assert.equal((Object.prototype as Record<string, unknown>)[key], undefined, `Object.prototype.${key}`);
}

const hostile = [
  `{"__proto__": {"polluted": 1}}`,
  `{"\\u005f\\u005fproto__": {"polluted": 1}}`,
  `{"constructor": {"prototype": {"polluted": 1}}}`,
  `{"a": [{"b": {"__proto__": {"polluted": 1}}}]}`,
  `{"__proto__": {}, "__proto__": {"polluted": 1}}`,
  `{"prototype": {"polluted": 1}, "ok": true}`,
  `[{"__pro\\u0074o__": {"isAdmin": true}}]`,
  `{"x": {"con\\u0073tructor": {"prototype": {"shell": "/bin/evil"}}}}`,
];

describe("foreign JSON: the door", () => {
  afterEach(pristine);

  for (const text of hostile) {
    it(`${text}: no forbidden key survives, every object has a null prototype, Object.prototype untouched`, () => {
      for (const parse of [parseForeignJson, parseForeignFrame]) {
        const parsed = parse(text);
        assert.ok(parsed.ok);
        assert.ok(parsed.notices.length > 0, "a notice says what was dropped");
        assertNoForbiddenKeys(parsed.value);
        for (const object of objectsIn(parsed.value)) if (!Array.isArray(object)) assert.equal(Object.getPrototypeOf(object), null);
        // What a careless consumer does with it: a merge by assignment and Object.assign.
        const merged: Record<string, unknown> = {};
        for (const object of objectsIn(parsed.value)) for (const [k, v] of Object.entries(object)) merged[k] = v;
        Object.assign({}, parsed.value);
        assert.equal((merged as { polluted?: unknown }).polluted, undefined);
      }
    });
  }

  it("says where each key was dropped", () => {
    const parsed = parseForeignJson(`{"a": [{"b": {"__proto__": {}}}], "constructor": 1}`);
    assert.ok(parsed.ok);
    assert.deepEqual([...parsed.notices].sort(), ["$.a[0].b.__proto__: key dropped (it could reach a prototype)", "$.constructor: key dropped (it could reach a prototype)"]);
  });

  it("keeps data, key order, arrays and primitives as they are; a BOM is skipped; bad JSON is an error", () => {
    const text = `\uFEFF{"z": {"y": [1, "two", null, {"w": false}]}, "a": 1.5, "s": "pro\\u0074otype is a word in a value"}`;
    const parsed = parseForeignJson(text);
    assert.ok(parsed.ok);
    assert.deepEqual(JSON.parse(JSON.stringify(parsed.value)), JSON.parse(text.slice(1)));
    assert.deepEqual(Object.keys(parsed.value as object), ["z", "a", "s"]);
    assert.deepEqual(parsed.notices, []);
    assert.ok(Array.isArray((parsed.value as { z: { y: unknown } }).z.y));
    assert.equal((parsed.value as { s: string }).s, "prototype is a word in a value", "values are never touched, only keys");
    const bad = parseForeignJson(`{"a": `);
    assert.equal(bad.ok, false);
  });

  it("a notice shows a foreign key escaped and cut short", () => {
    const parsed = parseForeignJson(`{${JSON.stringify(`a\n${"k".repeat(500)}`)}: {"__proto__": 1}}`);
    assert.ok(parsed.ok);
    assert.equal(parsed.notices.length, 1);
    assert.ok(!parsed.notices[0]!.includes("\n") && parsed.notices[0]!.length < 150, parsed.notices[0]);
  });

  it("UTF-8 cannot spell a forbidden key without the letters: an overlong `_` decodes to U+FFFD", () => {
    const bytes = Buffer.concat([Buffer.from('{"'), Buffer.from([0xc1, 0x9f, 0xc1, 0x9f]), Buffer.from('proto__": 1}')]);
    const text = new TextDecoder().decode(bytes);
    assert.equal(Object.keys(JSON.parse(text) as object)[0], "\ufffd\ufffd\ufffd\ufffdproto__");
    assert.ok(mayHoldForbiddenKey(text), "'proto' is still there to see");
  });

  it("walks data nested deeper than the call stack", () => {
    const depth = 100_000;
    const text = `${"[".repeat(depth)}{"__proto__": 1}${"]".repeat(depth)}`;
    const parsed = parseForeignJson(text);
    assert.ok(parsed.ok);
    assert.equal(parsed.notices.length, 1);
  });

  it("a structured-cloned value (the webview's) is made inert the same way", () => {
    const cloned = structuredClone(JSON.parse(`{"method": "x", "params": {"__proto__": {"polluted": 1}, "ok": 1}}`) as unknown);
    const notices: string[] = [];
    const inert = toInertData(cloned, notices) as { params: object };
    assert.equal(Object.getPrototypeOf(inert.params), null);
    assert.deepEqual(Object.keys(inert.params), ["ok"]);
    assert.deepEqual(notices, ["$.params.__proto__: key dropped (it could reach a prototype)"]);
  });

  it("fast path: a frame that cannot hold a forbidden key is JSON.parse's value, untouched", () => {
    const text = `{"type": "message_update", "assistantMessageEvent": {"delta": "hi"}}`;
    assert.equal(mayHoldForbiddenKey(text), false);
    const parsed = parseForeignFrame(text);
    assert.ok(parsed.ok);
    assert.equal(Object.getPrototypeOf(parsed.value), Object.prototype, "no walk was made");
    for (const t of [`{"__proto__": 1}`, `{"a": "\\u0041"}`, `{"constructor": 1}`, `{"prototype": 1}`]) assert.ok(mayHoldForbiddenKey(t), t);
  });
});

describe("foreign JSON: schema check that drops what does not fit", () => {
  const ajv = createAjv(validatorOptions);
  const schema = Type.Object(
    {
      name: Type.String(),
      retry: Type.Optional(Type.Object({ enabled: Type.Optional(Type.Boolean()), max: Type.Optional(Type.Number()) }, { additionalProperties: false })),
      list: Type.Optional(Type.Array(Type.Object({ id: Type.String() }))),
      free: Type.Optional(Type.Record(Type.String(), Type.Unknown())),
    },
    { additionalProperties: false },
  );
  const validate = ajv.compile(schema) as SchemaValidator;
  const check = (text: string) => {
    const parsed = parseForeignJson(text);
    assert.ok(parsed.ok);
    return checkForeign(parsed.value, validate, [...parsed.notices]);
  };

  it("drops unknown keys and wrongly typed values, each with a notice, and keeps the rest", () => {
    const checked = check(`{"name": "n", "nmae": 1, "retry": {"enabled": "yes", "max": 3, "extra": 1}, "list": [{"id": 1}, {"id": "b"}], "free": {"any": {"thing": 1}}}`);
    assert.ok(checked.ok);
    assert.deepEqual(JSON.parse(JSON.stringify(checked.value)), { name: "n", retry: { max: 3 }, list: [{ id: "b" }], free: { any: { thing: 1 } } });
    assert.deepEqual(checked.notices.sort(), ["$.list[0].id: must be string; dropped", "$.list[0]: must have required property 'id'; dropped", "$.nmae: unknown key dropped", "$.retry.enabled: must be boolean; dropped", "$.retry.extra: unknown key dropped"].sort());
  });

  it("drops every bad element of an array in one pass, keeping the others in order", () => {
    const checked = check(`{"name": "n", "list": [{"id": "a"}, {"id": 1}, {"id": "b"}, {}, {"id": "c"}, {"id": null}]}`);
    assert.ok(checked.ok);
    assert.deepEqual((checked.value as { list: { id: string }[] }).list.map((item) => item.id), ["a", "b", "c"]);
  });

  it("a missing required key or a top-level value of the wrong type fails, with the notices so far", () => {
    assert.equal(check(`{"nmae": "n"}`).ok, false);
    assert.equal(check(`[1]`).ok, false);
  });

  it("a forbidden key is dropped before the check sees it, and a record cannot be looked up into Object", () => {
    const checked = check(`{"name": "n", "free": {"__proto__": {"polluted": 1}, "ok": 1}}`);
    assert.ok(checked.ok);
    const free = (checked.value as { free: Record<string, unknown> }).free;
    assert.equal(free.constructor, undefined, "a null-prototype record: `constructor` is not Object");
    assert.equal(free.toString, undefined);
    assert.deepEqual(checked.notices, ["$.free.__proto__: key dropped (it could reach a prototype)"]);
  });
});
