import { strict as assert } from "node:assert";
import { mkdirSync, mkdtempSync, realpathSync, rmSync, symlinkSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { DocumentMarks } from "./document-marks";
import { plantedLinkOnWay, type SaveScope } from "./planted-link";

describe("save guard: what it knows of each open document (document-marks.ts)", () => {
  let dir: string;
  let ws: string;
  let notes: string;
  let bashrc: string;
  let scope: SaveScope;
  const key = "file:///ws/notes.txt";
  beforeEach(() => {
    dir = realpathSync(mkdtempSync(join(tmpdir(), "document-marks-")));
    ws = join(dir, "ws");
    mkdirSync(ws);
    mkdirSync(join(dir, "home"));
    bashrc = join(dir, "home", ".bashrc");
    writeFileSync(bashrc, "# the user's\n");
    notes = join(ws, "notes.txt");
    scope = { folders: [ws], writable: [ws], since: Date.now() - 1_000, offLimits: () => undefined };
  });
  afterEach(() => rmSync(dir, { recursive: true, force: true }));

  it("keeps a document loaded through a command's link marked when VS Code drops it and opens it again after the link went (ci-52)", () => {
    const marks = new DocumentMarks();
    writeFileSync(notes, "mine\n");
    marks.seen(key, notes, true);
    rmSync(notes);
    writeFileSync(bashrc, "SECRET\n");
    symlinkSync(bashrc, notes); // a command's link, and VS Code loads the document again through it
    assert.equal(marks.loadedThroughCommandLink(key), true);
    assert.equal(marks.loadedThroughCommandLink(key), false, "marked once");
    marks.closed(key); // its tab closed by the guard: VS Code may drop the document
    marks.seen(key, bashrc, true); // and open it again by name, through the link still there
    assert.equal(marks.loadedThroughLink(key), true, "opened again through the link");
    assert.deepEqual(marks.firstSeenOf(key), { real: notes, atOpen: true }, "where it led when the user opened it");
    assert.deepEqual(plantedLinkOnWay(notes, scope, marks.firstSeenOf(key)), { link: notes, leadsTo: bashrc }, "not taken for the user opening the linked file");
    rmSync(notes); // the link moved aside; VS Code tells of the document it read before only now
    marks.closed(key);
    marks.seen(key, notes, true);
    assert.equal(marks.loadedThroughLink(key), true, "still marked: its save is emptied");
    marks.loadedPlainly(key); // found to hold the workspace file's text (save-guard.ts checkLoaded)
    marks.seen(key, notes, true);
    assert.equal(marks.loadedThroughLink(key), false);
    assert.deepEqual(marks.firstSeenOf(key), { real: notes, atOpen: true });
  });

  it("keeps at most a thousand marks of documents closed", () => {
    const marks = new DocumentMarks();
    for (let i = 0; i <= 1_000; i++) marks.loadedThroughCommandLink(`file:///ws/${i}`);
    assert.equal(marks.loadedThroughLink("file:///ws/0"), false, "the oldest went");
    assert.equal(marks.loadedThroughLink("file:///ws/1"), true);
    assert.equal(marks.loadedThroughLink("file:///ws/1000"), true);
  });

  it("takes the user's word for a link put back: the document is theirs through it", () => {
    const marks = new DocumentMarks();
    marks.seen(key, notes, true);
    marks.loadedThroughCommandLink(key);
    marks.savingEmpty(key);
    marks.consented(key, bashrc);
    assert.equal(marks.loadedThroughLink(key), false);
    assert.deepEqual(marks.firstSeenOf(key), { real: bashrc, atOpen: true });
    marks.saved(key, notes);
    assert.deepEqual(marks.firstSeenOf(key), { real: bashrc, atOpen: true }, "no emptied save pending");
  });

  it("forgets a document never loaded through a link once it is closed", () => {
    const marks = new DocumentMarks();
    marks.seen(key, notes, true);
    marks.closed(key);
    assert.equal(marks.firstSeenOf(key), undefined);
  });

  it("takes a document saved empty for a plain one from then on, once", () => {
    const marks = new DocumentMarks();
    marks.seen(key, notes, true);
    marks.loadedThroughCommandLink(key);
    marks.savingEmpty(key);
    marks.saved(key, notes);
    assert.equal(marks.loadedThroughLink(key), false, "its next save is not emptied");
    assert.deepEqual(marks.firstSeenOf(key), { real: notes, atOpen: false });
    marks.seen(key, notes, true);
    marks.saved(key, bashrc);
    assert.deepEqual(marks.firstSeenOf(key), { real: notes, atOpen: true }, "a later save changes nothing");
  });

  it("forgets the saved-empty mark of a document closed before its save ended", () => {
    const marks = new DocumentMarks();
    marks.seen(key, notes, true);
    marks.loadedThroughCommandLink(key);
    marks.savingEmpty(key);
    marks.closed(key);
    marks.seen(key, notes, true);
    marks.saved(key, notes);
    assert.equal(marks.loadedThroughLink(key), true, "a save that wrote what it held unemptied does not clear it");
  });

  it("unmarks a document loaded again with no command's link on its way", () => {
    const marks = new DocumentMarks();
    marks.loadedThroughCommandLink(key);
    marks.loadedPlainly(key);
    assert.equal(marks.loadedThroughLink(key), false);
    assert.equal(marks.loadedThroughCommandLink(key), true);
  });
});
