import { strict as assert } from "node:assert";
import { execFileSync } from "node:child_process";
import { mkdirSync, symlinkSync, writeFileSync } from "node:fs";
import { homedir } from "node:os";
import { join } from "node:path";
import { deflateSync, inflateSync } from "node:zlib";
import { bmpToPng, detectImageMimeType } from "./image";
import { createReadTool, type ReadToolDetails } from "./read";
import { run, tempDir, textOf } from "./test-support";

/** A real 1x1 PNG. */
function png(): Buffer {
  const chunk = (type: string, data: Buffer) => {
    const len = Buffer.alloc(4);
    len.writeUInt32BE(data.length);
    return Buffer.concat([len, Buffer.from(type), data, Buffer.alloc(4)]);
  };
  const ihdr = Buffer.from([0, 0, 0, 1, 0, 0, 0, 1, 8, 2, 0, 0, 0]);
  return Buffer.concat([Buffer.from([0x89, 0x50, 0x4e, 0x47, 13, 10, 26, 10]), chunk("IHDR", ihdr), chunk("IDAT", deflateSync(Buffer.from([0, 255, 0, 0]))), chunk("IEND", Buffer.alloc(0))]);
}

/** A 2x2 24-bit bottom-up BMP: bottom row blue, blue; top row red, green. */
function bmp(): Buffer {
  const rowBytes = 8; // 2 px * 3 bytes, padded to 4
  const pixels = Buffer.alloc(rowBytes * 2);
  pixels.set([255, 0, 0, 255, 0, 0], 0); // bottom row (stored first): BGR blue, blue
  pixels.set([0, 0, 255, 0, 255, 0], rowBytes); // top row: red, green
  const header = Buffer.alloc(54);
  header.write("BM", 0, "ascii");
  header.writeUInt32LE(54 + pixels.length, 2);
  header.writeUInt32LE(54, 10);
  header.writeUInt32LE(40, 14);
  header.writeInt32LE(2, 18);
  header.writeInt32LE(2, 22);
  header.writeUInt16LE(1, 26);
  header.writeUInt16LE(24, 28);
  return Buffer.concat([header, pixels]);
}

describe("tools/read", () => {
  let dir: string;
  let cleanup: () => void;
  beforeEach(() => ({ dir, cleanup } = tempDir()));
  afterEach(() => cleanup());
  const read = () => createReadTool(dir);

  it("reads a text file relative to cwd", async () => {
    writeFileSync(join(dir, "a.txt"), "one\ntwo\nthree\n");
    const { result } = await run(read(), { path: "a.txt" });
    assert.equal(result.isError, undefined);
    assert.equal(textOf(result), "one\ntwo\nthree\n");
  });

  it("honours offset and limit and says how to continue", async () => {
    writeFileSync(join(dir, "a.txt"), "1\n2\n3\n4\n5");
    assert.equal(textOf((await run(read(), { path: "a.txt", offset: 2, limit: 2 })).result), "2\n3\n\n[2 more lines in file. Use offset=4 to continue.]");
    assert.equal(textOf((await run(read(), { path: "a.txt", offset: 4 })).result), "4\n5");
    const beyond = (await run(read(), { path: "a.txt", offset: 9 })).result;
    assert.equal(beyond.isError, true);
    assert.equal(textOf(beyond), "Offset 9 is beyond end of file (5 lines total)");
  });

  it("cuts long files at 2000 lines with a continuation notice and truncation details", async () => {
    writeFileSync(join(dir, "big.txt"), Array.from({ length: 2500 }, (_, i) => `line ${i + 1}`).join("\n"));
    const { result } = await run(read(), { path: "big.txt" });
    const text = textOf(result);
    assert.ok(text.startsWith("line 1\n"));
    assert.ok(text.endsWith("line 2000\n\n[Showing lines 1-2000 of 2500. Use offset=2001 to continue.]"));
    assert.equal((result.details as ReadToolDetails).truncation?.truncatedBy, "lines");
  });

  it("cuts at 50KB and names the limit", async () => {
    writeFileSync(join(dir, "wide.txt"), Array.from({ length: 100 }, () => "x".repeat(1023)).join("\n"));
    const text = textOf((await run(read(), { path: "wide.txt", offset: 3 })).result);
    assert.match(text, /\n\n\[Showing lines 3-52 of 100 \(50\.0KB limit\)\. Use offset=53 to continue\.\]$/);
  });

  it("points at bash when a single line is over the byte limit", async () => {
    writeFileSync(join(dir, "min.js"), "y".repeat(60 * 1024));
    const text = textOf((await run(read(), { path: "min.js" })).result);
    assert.equal(text, "[Line 1 is 60.0KB, exceeds 50.0KB limit. Use bash: sed -n '1p' min.js | head -c 51200]");
  });

  it("returns images as image content", async () => {
    writeFileSync(join(dir, "dot.png"), png());
    const { result } = await run(read(), { path: "dot.png" });
    assert.equal(textOf(result), "Read image file [image/png]");
    const image = result.content[1];
    assert.equal(image.type, "image");
    assert.ok(image.type === "image" && image.mimeType === "image/png" && Buffer.from(image.data, "base64").equals(png()));
  });

  it("converts BMP to PNG with the right pixels", async () => {
    writeFileSync(join(dir, "pic.bmp"), bmp());
    const { result } = await run(read(), { path: "pic.bmp" });
    assert.equal(textOf(result), "Read image file [image/png]\n[Image converted from image/bmp to image/png.]");
    const image = result.content[1];
    assert.ok(image.type === "image");
    const out = Buffer.from(image.data, "base64");
    assert.equal(detectImageMimeType(out), "image/png");
    const idat = out.indexOf("IDAT");
    const raw = inflateSync(out.subarray(idat + 4, idat + 4 + out.readUInt32BE(idat - 4)));
    assert.deepEqual([...raw], [0, 255, 0, 0, 0, 255, 0, /* row 2 */ 0, 0, 0, 255, 0, 0, 255]);
    assert.equal(bmpToPng(Buffer.from("BMnot really")), undefined);
  });

  it("refuses binary files instead of returning mojibake", async () => {
    writeFileSync(join(dir, "blob.bin"), Buffer.from([1, 2, 0, 3, 0xff, 0xfe, 0]));
    const { result } = await run(read(), { path: "blob.bin" });
    assert.equal(result.isError, true);
    assert.match(textOf(result), /^Cannot read blob\.bin: it is a binary file \(7B\), not text or a supported image\. Use bash/);
  });

  it("decodes UTF-16 text with a byte order mark", async () => {
    writeFileSync(join(dir, "u16.txt"), Buffer.concat([Buffer.from([0xff, 0xfe]), Buffer.from("héllo\n", "utf16le")]));
    assert.equal(textOf((await run(read(), { path: "u16.txt" })).result), "héllo\n");
  });

  it("fails clearly for a missing file, a directory and a path through a file", async () => {
    mkdirSync(join(dir, "sub"));
    const missing = (await run(read(), { path: "nope.txt" })).result;
    assert.equal(missing.isError, true);
    assert.match(textOf(missing), /ENOENT.*nope\.txt/);
    assert.match(textOf((await run(read(), { path: "sub" })).result), /EISDIR/);
    writeFileSync(join(dir, "plain"), "x");
    const through = (await run(read(), { path: "plain/inner.txt" })).result; // fails even for root
    assert.equal(through.isError, true);
    assert.match(textOf(through), /ENOTDIR/);
  });

  it("refuses a FIFO at once (the model's `mkfifo` held a thread of the host's I/O pool for good) and a device (/dev/zero, read without end)", async () => {
    execFileSync("mkfifo", [join(dir, "pipe")]);
    symlinkSync("/dev/zero", join(dir, "zero"));
    for (const path of ["pipe", "zero"]) {
      const { result } = await run(read(), { path });
      assert.equal(result.isError, true, path);
      assert.match(textOf(result), /is not a regular file/, path);
    }
  });

  it("expands ~ and strips a leading @", async () => {
    const asked: string[] = [];
    const spy = createReadTool("/somewhere", { io: { exists: async () => true, readFile: async (p) => (asked.push(p), Buffer.from("x")) } });
    await run(spy, { path: "~/notes/todo.md" });
    assert.deepEqual(asked, [join(homedir(), "notes/todo.md")]);
    writeFileSync(join(dir, "m.txt"), "mention");
    assert.equal(textOf((await run(read(), { path: "@m.txt" })).result), "mention");
  });

  it("reads through its ReadIo seam (e.g. an unsaved editor buffer)", async () => {
    const tool = createReadTool("/proj", {
      io: { exists: async (p) => p === "/proj/buf.ts", readFile: async () => Buffer.from("unsaved text") },
    });
    assert.equal(textOf((await run(tool, { path: "buf.ts" })).result), "unsaved text");
  });

  it("rejects at once when aborted", async () => {
    const slow = createReadTool("/p", { io: { exists: async () => true, readFile: () => new Promise(() => {}) } });
    const controller = new AbortController();
    const pending = run(slow, { path: "x" }, controller.signal);
    controller.abort();
    const { result } = await pending;
    assert.equal(result.isError, true);
    assert.equal(textOf(result), "Operation aborted");
  });
});
