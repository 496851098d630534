import * as assert from "node:assert/strict";
import { Value } from "@sinclair/typebox/value";
import { attachmentLimits, fromWebviewSchemas } from "../shared/webview-protocol";
import { splitUserContext } from "./items/user-context";
import { chipSpans, mentionLabel, mentionQueryAt, mentionToken, parseMentions, removeSpan, replaceMentionQuery, uniqueMentions } from "./mentions";

const mentions = (text: string) => parseMentions(text).map((s) => s.mention);

describe("@ mentions in the message box", () => {
  it("reads files, line ranges, folders and the special mentions", () => {
    assert.deepEqual(mentions("look at @src/a.ts#L10-20 and @src/ with @selection, @problems."), [
      { kind: "file", path: "src/a.ts", lines: { start: 10, end: 20 } },
      { kind: "folder", path: "src" },
      { kind: "selection" },
      { kind: "problems" },
    ]);
    assert.deepEqual(mentions("@README.md#L7"), [{ kind: "file", path: "README.md", lines: { start: 7, end: 7 } }]);
    assert.deepEqual(mentions("@a.ts#L9-L3"), [{ kind: "file", path: "a.ts", lines: { start: 3, end: 9 } }]);
  });

  it("reads quoted paths with spaces, and the range after the quote", () => {
    assert.deepEqual(mentions('fix @"my dir/file name.ts"#L2-3 please'), [{ kind: "file", path: "my dir/file name.ts", lines: { start: 2, end: 3 } }]);
    assert.deepEqual(mentions('@"Makefile"'), [{ kind: "file", path: "Makefile" }]);
  });

  it("leaves e-mail addresses, handles and trailing punctuation alone", () => {
    assert.deepEqual(mentions("mail me@example.com or ask @john"), []);
    const [span] = parseMentions("(see @src/a.ts).");
    assert.equal("(see @src/a.ts).".slice(span.start, span.end), "@src/a.ts");
  });

  it("writes tokens that read back as the same mention", () => {
    for (const m of [
      { kind: "file" as const, path: "src/a.ts", lines: { start: 2, end: 3 } },
      { kind: "file" as const, path: "my dir/b c.ts" },
      { kind: "file" as const, path: "Makefile" },
      { kind: "folder" as const, path: "src/lib" },
      { kind: "selection" as const },
    ]) {
      assert.deepEqual(mentions(`x ${mentionToken(m)} y`), [m], mentionToken(m));
    }
    assert.equal(mentionToken({ kind: "file", path: "src/a.ts", lines: { start: 4, end: 4 } }), "@src/a.ts#L4");
    assert.equal(mentionToken({ kind: "file", path: "Makefile" }), '@"Makefile"');
    assert.equal(mentionLabel({ kind: "file", path: "src/a.ts", lines: { start: 2, end: 3 } }), "a.ts:2-3");
  });

  it("finds the @ word being typed and replaces it when a completion is picked", () => {
    assert.deepEqual(mentionQueryAt("see @src/gr", 11), { start: 4, query: "src/gr" });
    assert.deepEqual(mentionQueryAt("@", 1), { start: 0, query: "" });
    assert.deepEqual(mentionQueryAt('see @"my di', 11), { start: 4, query: "my di" });
    assert.equal(mentionQueryAt("a@b", 3), undefined);
    assert.equal(mentionQueryAt("@src/a.ts#L2", 12), undefined);
    assert.equal(mentionQueryAt("@src and", 2), undefined);
    assert.deepEqual(replaceMentionQuery("see @gr now", 4, 7, "@src/greet.ts"), { text: "see @src/greet.ts now", caret: 18 });
    assert.deepEqual(replaceMentionQuery("@gr", 0, 3, "@src/greet.ts"), { text: "@src/greet.ts ", caret: 14 });
  });

  it("removes a token without leaving a double space, and keeps each mention once", () => {
    const text = "fix @a.ts now";
    const [span] = parseMentions(text);
    assert.equal(removeSpan(text, span.start, span.end), "fix now");
    assert.deepEqual(uniqueMentions(mentions("@a.ts @a.ts @a.ts#L1")), [{ kind: "file", path: "a.ts" }, { kind: "file", path: "a.ts", lines: { start: 1, end: 1 } }]);
  });

  it("the prompt message's schema takes mentions and images within the limits", () => {
    const image = { name: "a.png", mimeType: "image/png", data: "iVBORw0KGgo=" };
    const ok = { type: "prompt", text: "hi", mentions: [{ kind: "file", path: "a.ts", lines: { start: 1, end: 2 } }], images: [image] };
    assert.ok(Value.Check(fromWebviewSchemas.prompt, ok));
    assert.ok(!Value.Check(fromWebviewSchemas.prompt, { ...ok, images: [{ ...image, mimeType: "image/svg+xml" }] }), "svg is not an image the models take");
    assert.ok(!Value.Check(fromWebviewSchemas.prompt, { ...ok, images: Array(attachmentLimits.images + 1).fill(image) }));
    assert.ok(!Value.Check(fromWebviewSchemas.prompt, { ...ok, images: [{ ...image, data: "A".repeat((attachmentLimits.imageBytes / 3) * 4 + 8) }] }));
    assert.ok(!Value.Check(fromWebviewSchemas.prompt, { ...ok, mentions: [{ kind: "file", path: "a.ts", lines: { start: 0, end: 2 } }] }));
  });

  it("folds the context blocks the extension appended to a user message", () => {
    const sent = 'Explain @src/a.ts#L2-3\n\n<context type="file" path="src/a.ts" lines="2-3">\ntwo\n</context>\n\n<context type="selection" omitted="no text is selected in the editor" />';
    assert.deepEqual(splitUserContext(sent), {
      text: "Explain @src/a.ts#L2-3",
      context: sent.slice(sent.indexOf("<context")),
      labels: ["src/a.ts#L2-3", "selection (no text is selected in the editor)"],
    });
    assert.equal(splitUserContext("just <context type=\"x\"> typed"), undefined);
  });

  it("chips only for paths that are there, none for the word still being typed unless it names a file (#32: @src/mai)", () => {
    const there: Record<string, "file" | "folder"> = { "src/main.ts": "file", src: "folder", "my dir/b.ts": "file", "/etc/hosts": "file" };
    const kindOf = (p: string) => there[p] ?? "none";
    const chips = (text: string, caret = text.length, known: (p: string) => "file" | "folder" | "none" | undefined = kindOf) =>
      chipSpans(parseMentions(text), text, caret, known).map((s) => `${s.index}:${mentionLabel(s.mention)}`);
    // Typed key by key: no chip on the way (a folder, a half name), one once the name is a file's.
    for (const typed of ["@s", "@src", "@src/", "@src/mai", "@src/main.t"]) assert.deepEqual(chips(`look at ${typed}`), [], typed);
    assert.deepEqual(chips("look at @src/main.ts"), ["0:main.ts"]);
    assert.deepEqual(chips("look at @src/main.ts#L3-4"), ["0:main.ts:3-4"]);
    // Written out (a space after it, the caret elsewhere, or the box unfocused: caret -1).
    assert.deepEqual(chips("look at @src/mai and more"), []);
    assert.deepEqual(chips("look at @src/ and more"), ["0:src/"]);
    assert.deepEqual(chips("look at @src/", 3), ["0:src/"]);
    assert.deepEqual(chips("look at @src/", -1), ["0:src/"]);
    // The caret inside a word is not at its end: "@src/main.ts" with the caret before ".ts".
    assert.deepEqual(chips("@src/main.ts", 9), ["0:main.ts"]);
    // Indexes stay those of the text's mentions (the × removes the right one).
    assert.deepEqual(chips("@gone.ts @selection @src/main.ts @\"my dir/b.ts\" x"), ["1:Selection", "2:main.ts", "3:b.ts"]);
    // Not known yet: no chip until the extension answers; an absolute path is asked like the others.
    assert.deepEqual(chips("@src/main.ts x", undefined, () => undefined), []);
    assert.deepEqual(chips("@/etc/hosts x"), ["0:hosts"]);
    // @selection and @problems need no answer, at the caret or not.
    assert.deepEqual(chips("@selection"), ["0:Selection"]);
  });
});
