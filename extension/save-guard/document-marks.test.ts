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

  it("keeps a document closed while its link is moved aside, and opened again through that link, for a command's link", () => {
    const marks = new DocumentMarks();
    writeFileSync(notes, "mine\n");
    marks.seen(key, notes, true);
    rmSync(notes);
    symlinkSync(bashrc, notes); // a command's link, and VS Code loads the document again through it
    assert.equal(marks.loadedThroughCommandLink(key), true);
    assert.equal(marks.loadedThroughCommandLink(key), false, "marked once");
    marks.moveAsideBegins(key);
    marks.closed(key); // its tab closed: VS Code may drop the document
    marks.seen(key, bashrc, true); // and open it again by name, through the link
    assert.equal(marks.loadedThroughLink(key), true);
    assert.deepEqual(marks.firstSeenOf(key), { real: notes, atOpen: true }, "where it led when the user opened it");
    assert.deepEqual(plantedLinkOnWay(notes, scope, marks.firstSeenOf(key)), { link: notes, leadsTo: bashrc }, "not taken for the user opening the linked file");
    marks.moveAsideEnded(key, () => true);
    assert.equal(marks.loadedThroughLink(key), true, "still open after the move: still marked");
  });

  it("forgets a document closed during a move once every overlapping move has ended", () => {
    const marks = new DocumentMarks();
    marks.seen(key, notes, true);
    marks.loadedThroughCommandLink(key);
    marks.moveAsideBegins(key);
    marks.moveAsideBegins(key);
    marks.closed(key);
    marks.moveAsideEnded(key, () => false);
    assert.equal(marks.loadedThroughLink(key), true, "one move still under way");
    marks.seen(key, bashrc, true);
    assert.deepEqual(marks.firstSeenOf(key), { real: notes, atOpen: true });
    marks.moveAsideEnded(key, () => false);
    assert.equal(marks.loadedThroughLink(key), false);
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

  it("forgets the saved-empty mark of a document closed during its move, so that its next opening is the user's own", () => {
    const marks = new DocumentMarks();
    marks.seen(key, notes, true);
    marks.loadedThroughCommandLink(key);
    marks.moveAsideBegins(key);
    marks.savingEmpty(key);
    marks.closed(key);
    marks.moveAsideEnded(key, () => false);
    marks.seen(key, notes, true);
    marks.saved(key, notes);
    assert.deepEqual(marks.firstSeenOf(key), { real: notes, atOpen: true });
  });

  it("unmarks a document loaded again with no command's link on its way", () => {
    const marks = new DocumentMarks();
    marks.loadedThroughCommandLink(key);
    marks.loadedPlainly(key);
    assert.equal(marks.loadedThroughLink(key), false);
    assert.equal(marks.loadedThroughCommandLink(key), true);
  });
});
