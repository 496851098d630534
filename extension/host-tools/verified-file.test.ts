import { strict as assert } from "node:assert";
import { spawn } from "node:child_process";
import { execFileSync } from "node:child_process";
import { mkdirSync, mkdtempSync, readFileSync, realpathSync, renameSync, rmSync, symlinkSync, truncateSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { fileTextHeld, holdsVerified, MAX_READ_BYTES, readVerified, sameText, verifiedDocument } from "./verified-file";
import { realRootsFor, resolveWorkspacePath } from "./workspace-paths";

describe("editor tools: a workspace file read as it really is when opened (verified-file.ts)", () => {
  let root: string;
  let ws: string;
  let home: string;

  beforeEach(() => {
    root = realpathSync(mkdtempSync(join(tmpdir(), "verified-")));
    ws = join(root, "ws");
    home = join(root, "home");
    mkdirSync(ws);
    mkdirSync(join(home, ".ssh"), { recursive: true });
    writeFileSync(join(ws, "a.ts"), "export const a = 1;\n");
    writeFileSync(join(root, "outside.txt"), "OUTSIDE\n");
    writeFileSync(join(home, ".ssh", "id_ed25519"), "PRIVATE KEY\n");
  });
  afterEach(() => rmSync(root, { recursive: true, force: true }));

  const read = async (name: string) => Buffer.from(await readVerified(join(ws, name), [ws], { home }, name)).toString();

  it("reads a file of the workspace, and one through a link that stays inside", async () => {
    symlinkSync("a.ts", join(ws, "alias.ts"));
    assert.equal(await read("a.ts"), "export const a = 1;\n");
    assert.equal(await read("alias.ts"), "export const a = 1;\n");
  });

  it("refuses a link out of the workspace, one into a hidden secret, a folder, a FIFO (without hanging)", async () => {
    symlinkSync(join(root, "outside.txt"), join(ws, "out"));
    await assert.rejects(read("out"), /outside the workspace/);
    const wsInHome = join(home, "proj");
    mkdirSync(wsInHome);
    symlinkSync(join(home, ".ssh", "id_ed25519"), join(wsInHome, "key"));
    await assert.rejects(readVerified(join(wsInHome, "key"), [home], { home }, "key"), /hides from the agent/);
    mkdirSync(join(ws, "dir"));
    await assert.rejects(read("dir"), /is a folder/);
    execFileSync("mkfifo", [join(ws, "pipe")]);
    await assert.rejects(read("pipe"), /not a regular file/);
    await assert.rejects(read("missing"), /does not exist/);
  });

  it("never returns the outside file while a job flips a link between it and a workspace file", async function () {
    this.timeout(30_000);
    writeFileSync(join(ws, "inside.txt"), "INSIDE\n");
    symlinkSync("inside.txt", join(ws, "flip"));
    // Each swap a rename (atomic): the link always exists, pointing one way or the other.
    const flipper = spawn("sh", ["-c", 'while :; do ln -sfn "$1" l1 && mv -T l1 flip; ln -sfn "$2" l2 && mv -T l2 flip; done', "sh", "inside.txt", join(root, "outside.txt")], { cwd: ws, stdio: "ignore" });
    const seen = { inside: 0, refused: 0, outside: 0 };
    try {
      for (let i = 0; i < 400; i++) {
        try {
          const text = await read("flip");
          if (text.includes("OUTSIDE")) seen.outside++;
          else seen.inside++;
        } catch {
          seen.refused++;
        }
      }
    } finally {
      flipper.kill("SIGKILL");
    }
    assert.equal(seen.outside, 0, JSON.stringify(seen));
    assert.ok(seen.refused > 0 && seen.inside > 0, `both ways taken: ${JSON.stringify(seen)}`);
    assert.equal(readFileSync(join(root, "outside.txt"), "utf8"), "OUTSIDE\n");
  });

  it("compares a document's text with the bytes read, a BOM and line ends aside; not UTF-8: not comparable", () => {
    assert.equal(sameText("a\nb\n", Buffer.from("\uFEFFa\r\nb\r\n")), true);
    assert.equal(sameText("a\nb\n", Buffer.from("a\nc\n")), false);
    assert.equal(sameText("é", Buffer.from([0xe9])), undefined);
  });

  it("never takes a document VS Code loaded from a secret while the file read (not UTF-8) was the workspace's", async () => {
    // A job flips `flip` between a workspace file in Latin-1 (or UTF-16) and a secret; VS Code's open
    // follows the link at its own moment: here, the moment it led to the secret.
    const secret = join(home, ".ssh", "id_ed25519");
    const latin1 = new TextDecoder("windows-1252");
    const cases: [string, Buffer, (bytes: Uint8Array) => string][] = [
      ["latin1.txt", Buffer.from("caf\xe9\n", "latin1"), (bytes) => latin1.decode(bytes)],
      ["utf16.txt", Buffer.concat([Buffer.from([0xff, 0xfe]), Buffer.from("hello\n", "utf16le")]), (bytes) => new TextDecoder("utf-16le").decode(bytes)],
    ];
    for (const [name, bytes, decodeAsDocument] of cases) {
      writeFileSync(join(ws, name), bytes);
      symlinkSync(name, join(ws, "flip"));
      const openFlipped = async () => {
        symlinkSync(secret, join(ws, "flip.new"));
        renameSync(join(ws, "flip.new"), join(ws, "flip"));
        const text = decodeAsDocument(readFileSync(join(ws, "flip")));
        symlinkSync(name, join(ws, "flip.new"));
        renameSync(join(ws, "flip.new"), join(ws, "flip"));
        return { getText: () => text };
      };
      const opened = verifiedDocument(() => readVerified(join(ws, "flip"), [ws], { home }, "flip"), openFlipped, "flip", async (b) => decodeAsDocument(b));
      await assert.rejects(opened, /changed while it was opened/, name);
      // Opened when the link led to the workspace file: used.
      const plain = async () => ({ getText: () => decodeAsDocument(readFileSync(join(ws, "flip"))) });
      const document = await verifiedDocument(() => readVerified(join(ws, "flip"), [ws], { home }, "flip"), plain, "flip", async (b) => decodeAsDocument(b));
      assert.doesNotMatch(document.getText(), /PRIVATE KEY/);
      rmSync(join(ws, "flip"));
    }
  });

  it("never lets the tools use a loaded document that does not hold what the file does: the one a refused open left loaded, one loaded again through a link", async () => {
    const secret = join(home, ".ssh", "id_ed25519");
    writeFileSync(join(ws, "notes.txt"), "NOTES\n");
    symlinkSync("notes.txt", join(ws, "flip"));
    const link = (target: string) => {
      symlinkSync(target, join(ws, "flip.new"));
      renameSync(join(ws, "flip.new"), join(ws, "flip"));
    };
    const utf8 = async (bytes: Uint8Array) => new TextDecoder().decode(bytes);
    const read = () => readVerified(join(ws, "flip"), [ws], { home }, "flip");
    // VS Code's documents: what its open loaded stays loaded, refused or not.
    const loaded: { getText(): string; isDirty: boolean }[] = [];
    const openFlipped = async () => {
      link(secret);
      const text = readFileSync(join(ws, "flip"), "utf8");
      link("notes.txt");
      const document = { getText: () => text, isDirty: false };
      loaded.push(document);
      return document;
    };
    await assert.rejects(verifiedDocument(read, openFlipped, "flip", (b) => utf8(b)), /changed while it was opened/);
    assert.match(loaded[0]!.getText(), /PRIVATE KEY/, "VS Code holds the key's document");
    assert.equal(await holdsVerified(loaded[0]!, read, utf8), false, "the next tool does not take it");
    // Loaded again while the link leads to the key (VS Code reloads a file that changed on disk).
    link(secret);
    assert.equal(await holdsVerified(loaded[0]!, read, utf8), false);
    link("notes.txt");
    assert.equal(await holdsVerified({ getText: () => "NOTES\r\n", isDirty: false }, read, utf8), true, "the file's own text");
    assert.equal(await holdsVerified({ getText: () => "NOTES and the user's typing\n", isDirty: true }, read, utf8), true, "unsaved changes");
  });

  it("refuses /proc however it is reached: named there, through a link in a writable folder on its way, or as a workspace folder that is a link (the extension host's own environment)", async function () {
    if (process.platform !== "linux") this.skip();
    const attach = (absPath: string, folders: readonly string[]) => readVerified(absPath, realRootsFor(absPath, folders), { home }, absPath);
    // /tmp is a writable root of the sandbox: a command there can make a link to /proc/self.
    symlinkSync("/proc/self", join(root, "build"));
    for (const named of ["/proc/self/environ", `/proc/${process.pid}/environ`, "/proc/self/cmdline", join(root, "build", "environ")]) {
      await assert.rejects(attach(named, [ws]), /\/proc/, named);
    }
    symlinkSync("/proc/self", join(root, "linked-ws"));
    await assert.rejects(attach(join(root, "linked-ws", "environ"), [join(root, "linked-ws")]), /\/proc/, "a workspace folder that leads into /proc");
    await assert.rejects(readVerified("/proc/self/environ", ["/"], { home }, "environ"), /\/proc/, "the root opened as the workspace");
    assert.equal(await attach(join(ws, "a.ts"), [ws]).then((bytes) => Buffer.from(bytes).toString()), "export const a = 1;\n");
  });

  it("never takes a document VS Code loaded again through a link while its text was being compared (decodeAs goes to VS Code and back)", async () => {
    writeFileSync(join(ws, "latin1.txt"), Buffer.from("caf\xe9\n", "latin1"));
    const read = () => readVerified(join(ws, "latin1.txt"), [ws], { home }, "latin1.txt");
    const latin1 = (bytes: Uint8Array) => new TextDecoder("windows-1252").decode(bytes);
    // The document held the file's text when compared; VS Code's reload (a link at its name, led to
    // the key) arrives while workspace.decode's round trip is awaited.
    const loadedThen = () => {
      let text = "caf\u00e9\n";
      const document = { getText: () => text, isDirty: false };
      const decodeAs = async (bytes: Uint8Array) => {
        text = "PRIVATE KEY\n";
        return latin1(bytes);
      };
      return { document, decodeAs };
    };
    const loaded = loadedThen();
    const holds = await holdsVerified(loaded.document, read, loaded.decodeAs);
    assert.ok(!holds || !/PRIVATE KEY/.test(loaded.document.getText()), "a document of the key taken as the file's");
    const opened = loadedThen();
    await assert.rejects(verifiedDocument(read, async () => opened.document, "latin1.txt", opened.decodeAs), /changed while it was opened/);
    // Nothing changing meanwhile: taken.
    const still = { getText: () => "caf\u00e9\n", isDirty: false };
    assert.equal(await holdsVerified(still, read, async (bytes) => latin1(bytes)), true);
  });

  it("takes a document's unsaved changes as the user's only while its name does not lead out of the workspace or into a secret", async () => {
    // A repository ships notes.md -> ~/.ssh/id_ed25519 (or a command flips it there and VS Code
    // reloads the clean document through it); the user then types in it: dirty, the key below.
    writeFileSync(join(ws, "notes.md"), "NOTES\n");
    const read = () => readVerified(join(ws, "notes.md"), [ws], { home }, "notes.md");
    const utf8 = async (bytes: Uint8Array) => new TextDecoder().decode(bytes);
    const typed = { getText: () => "PRIVATE KEY\nand the user's typing\n", isDirty: true };
    rmSync(join(ws, "notes.md"));
    symlinkSync(join(home, ".ssh", "id_ed25519"), join(ws, "notes.md"));
    assert.equal(await holdsVerified(typed, read, utf8), false, "a link into a hidden secret");
    rmSync(join(ws, "notes.md"));
    symlinkSync(join(root, "outside.txt"), join(ws, "notes.md"));
    assert.equal(await holdsVerified(typed, read, utf8), false, "a link out of the workspace");
    rmSync(join(ws, "notes.md"));
    writeFileSync(join(ws, "notes.md"), "NOTES\n");
    assert.equal(await holdsVerified(typed, read, utf8), true, "the workspace file: the user's changes");
    rmSync(join(ws, "notes.md"));
    assert.equal(await holdsVerified(typed, read, utf8), true, "deleted on disk: the unsaved buffer is still the user's");
  });

  it("refuses a file larger than VS Code gives extensions, without reading it into memory (a sparse file made in an instant)", async () => {
    writeFileSync(join(ws, "big.txt"), "");
    truncateSync(join(ws, "big.txt"), 1024 * 1024 * 1024);
    const before = process.memoryUsage().arrayBuffers;
    await assert.rejects(read("big.txt"), /larger than 50 MB/);
    assert.ok(process.memoryUsage().arrayBuffers - before < 100 * 1024 * 1024, "not read whole");
    truncateSync(join(ws, "big.txt"), MAX_READ_BYTES);
    assert.equal((await readVerified(join(ws, "big.txt"), [ws], { home }, "big.txt")).length, MAX_READ_BYTES);
  });

  it("refuses Pi's own logins where PI_CODING_AGENT_DIR puts its agent dir (in the workspace: a dotfiles repository)", async () => {
    const dotfiles = join(home, "dotfiles");
    mkdirSync(join(dotfiles, "pi-agent"), { recursive: true });
    writeFileSync(join(dotfiles, "pi-agent", "auth.json"), '{"anthropic":{"key":"API-KEY"}}\n');
    const hidden = { home, agentDir: join(dotfiles, "pi-agent") };
    await assert.rejects(readVerified(join(dotfiles, "pi-agent", "auth.json"), [dotfiles], hidden, "pi-agent/auth.json"), /hides from the agent/);
    assert.throws(() => resolveWorkspacePath("pi-agent/auth.json", [dotfiles], hidden), /which the sandbox hides/);
  });

  it("takes a document of valid UTF-8 bytes that a setting had VS Code decode otherwise (files.encoding), as that encoding says", async () => {
    writeFileSync(join(ws, "accents.txt"), "caf\u00e9\n");
    const latin1 = async (bytes: Uint8Array) => new TextDecoder("windows-1252").decode(bytes);
    const read = () => readVerified(join(ws, "accents.txt"), [ws], { home }, "accents.txt");
    const document = { getText: () => "caf\u00c3\u00a9\n", isDirty: false };
    assert.equal(await holdsVerified(document, read, latin1), true);
    assert.equal(await verifiedDocument(read, async () => document, "accents.txt", latin1), document);
    assert.equal(await holdsVerified({ getText: () => "other\n", isDirty: false }, read, latin1), false);
  });

  it("tells what a document holds of the file at its name: its text, other text, a name leading elsewhere, or no file", async () => {
    const reader = (name: string) => () => readVerified(join(ws, name), [ws], { home }, name);
    const utf8 = (bytes: Uint8Array) => Promise.resolve(Buffer.from(bytes).toString("utf8"));
    const doc = (text: string) => ({ getText: () => text });
    writeFileSync(join(ws, "mixed.txt"), "a\r\nb\nc\r\n");
    assert.equal(await fileTextHeld(doc("a\r\nb\r\nc\r\n"), reader("mixed.txt"), utf8), "holds", "line ends aside");
    assert.equal(await fileTextHeld(doc("# the user's own start-up file\n"), reader("mixed.txt"), utf8), "differs");
    symlinkSync(join(home, ".ssh", "id_ed25519"), join(ws, "key.txt"));
    assert.equal(await fileTextHeld(doc("PRIVATE KEY\n"), reader("key.txt"), utf8), "elsewhere");
    assert.equal(await fileTextHeld(doc(""), reader("missing.txt"), utf8), "unknown");
  });
});
