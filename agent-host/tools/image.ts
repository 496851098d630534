/**
 * Images for the read tool: recognise the formats pi sends inline (JPEG, PNG, GIF, WebP, BMP) by
 * their bytes, turn BMP into PNG (providers do not take BMP), and refuse what is over the inline
 * size limit. Unlike pi we do not resize (no image library in the host): a too-big image is
 * omitted with pi's message.
 */
import { zlib } from "./lazy-node";

export type ImageMimeType = "image/jpeg" | "image/png" | "image/gif" | "image/webp" | "image/bmp";

/** Base64 payload limit (pi's: headroom below Anthropic's 5MB). */
export const MAX_INLINE_IMAGE_BASE64_BYTES = 4.5 * 1024 * 1024;

const ascii = (buf: Uint8Array, at: number, text: string): boolean =>
  buf.length >= at + text.length && [...text].every((ch, i) => buf[at + i] === ch.charCodeAt(0));
const u16le = (b: Uint8Array, at: number) => (b[at] ?? 0) | ((b[at + 1] ?? 0) << 8);
const u32le = (b: Uint8Array, at: number) => (u16le(b, at) + u16le(b, at + 2) * 0x10000) >>> 0;
const i32le = (b: Uint8Array, at: number) => u32le(b, at) | 0;
const u32be = (b: Uint8Array, at: number) => (((b[at] ?? 0) << 24) | ((b[at + 1] ?? 0) << 16) | ((b[at + 2] ?? 0) << 8) | (b[at + 3] ?? 0)) >>> 0;

/** The image type of these bytes if it is one we send inline; animated PNG and JPEG-LS are not. */
export function detectImageMimeType(buf: Uint8Array): ImageMimeType | undefined {
  if (buf[0] === 0xff && buf[1] === 0xd8 && buf[2] === 0xff) return buf[3] === 0xf7 ? undefined : "image/jpeg";
  if (buf[0] === 0x89 && ascii(buf, 1, "PNG\r\n\x1a\n")) {
    return buf.length >= 16 && u32be(buf, 8) === 13 && ascii(buf, 12, "IHDR") && !isAnimatedPng(buf) ? "image/png" : undefined;
  }
  if (ascii(buf, 0, "GIF87a") || ascii(buf, 0, "GIF89a")) return "image/gif";
  if (ascii(buf, 0, "RIFF") && ascii(buf, 8, "WEBP")) return "image/webp";
  if (ascii(buf, 0, "BM") && isBmp(buf)) return "image/bmp";
  return undefined;
}

function isAnimatedPng(buf: Uint8Array): boolean {
  for (let at = 8; at + 8 <= buf.length; ) {
    if (ascii(buf, at + 4, "acTL")) return true;
    if (ascii(buf, at + 4, "IDAT")) return false;
    const next = at + 12 + u32be(buf, at);
    if (next <= at) return false;
    at = next;
  }
  return false;
}

function isBmp(buf: Uint8Array): boolean {
  if (buf.length < 30) return false;
  const dibSize = u32le(buf, 14);
  const pixelOffset = u32le(buf, 10);
  if (pixelOffset < 14 + dibSize) return false;
  if (dibSize === 12) return u16le(buf, 22) === 1 && [1, 4, 8, 16, 24, 32].includes(u16le(buf, 24));
  if (dibSize < 40 || dibSize > 124) return false;
  return u16le(buf, 26) === 1 && [1, 4, 8, 16, 24, 32].includes(u16le(buf, 28));
}

export type InlineImage = { ok: true; data: string; mimeType: string; hints: string[] } | { ok: false; message: string };

/** The image as an inline attachment (base64), converting BMP to PNG; or why it is left out. */
export function toInlineImage(bytes: Buffer, mimeType: ImageMimeType): InlineImage {
  const hints: string[] = [];
  let payload = bytes;
  let type: string = mimeType;
  if (mimeType === "image/bmp") {
    const png = bmpToPng(bytes);
    if (!png) return { ok: false, message: "[Image omitted: could not be converted to a supported inline image format.]" };
    payload = png;
    type = "image/png";
    hints.push("[Image converted from image/bmp to image/png.]");
  }
  const data = payload.toString("base64");
  if (data.length >= MAX_INLINE_IMAGE_BASE64_BYTES) {
    return { ok: false, message: "[Image omitted: could not be resized below the inline image size limit.]" };
  }
  return { ok: true, data, mimeType: type, hints };
}

/** Uncompressed 24- and 32-bit BMPs (the common kind) as PNG; undefined for anything else. */
export function bmpToPng(bmp: Buffer): Buffer | undefined {
  if (!ascii(bmp, 0, "BM") || u32le(bmp, 14) < 40) return undefined;
  const width = i32le(bmp, 18);
  const rawHeight = i32le(bmp, 22);
  const bpp = u16le(bmp, 28);
  const compression = u32le(bmp, 30);
  const offset = u32le(bmp, 10);
  const height = Math.abs(rawHeight);
  if (width <= 0 || height === 0 || (bpp !== 24 && bpp !== 32) || compression !== 0) return undefined;
  const stride = Math.ceil((width * bpp) / 32) * 4;
  if (offset + stride * height > bmp.length) return undefined;
  const channels = 3; // a 32-bit BI_RGB pixel's fourth byte is unused, not alpha
  const raw = Buffer.alloc((width * channels + 1) * height);
  for (let y = 0; y < height; y++) {
    const src = offset + (rawHeight > 0 ? height - 1 - y : y) * stride;
    let dst = y * (width * channels + 1) + 1; // first byte of each row: filter 0
    for (let x = 0; x < width; x++) {
      const px = src + x * (bpp / 8);
      raw[dst++] = bmp[px + 2];
      raw[dst++] = bmp[px + 1];
      raw[dst++] = bmp[px];
    }
  }
  const ihdr = Buffer.alloc(13);
  ihdr.writeUInt32BE(width, 0);
  ihdr.writeUInt32BE(height, 4);
  ihdr[8] = 8;
  ihdr[9] = 2; // truecolour RGB
  return Buffer.concat([
    Buffer.from([0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a]),
    pngChunk("IHDR", ihdr),
    pngChunk("IDAT", zlib().deflateSync(raw)),
    pngChunk("IEND", Buffer.alloc(0)),
  ]);
}

const CRC_TABLE = Array.from({ length: 256 }, (_, n) => {
  let c = n;
  for (let k = 0; k < 8; k++) c = c & 1 ? 0xedb88320 ^ (c >>> 1) : c >>> 1;
  return c >>> 0;
});

function crc32(data: Buffer): number {
  let crc = 0xffffffff;
  for (const byte of data) crc = CRC_TABLE[(crc ^ byte) & 0xff] ^ (crc >>> 8);
  return (crc ^ 0xffffffff) >>> 0;
}

function pngChunk(type: string, data: Buffer): Buffer {
  const head = Buffer.alloc(8);
  head.writeUInt32BE(data.length, 0);
  head.write(type, 4, "ascii");
  const crc = Buffer.alloc(4);
  crc.writeUInt32BE(crc32(Buffer.concat([head.subarray(4), data])), 0);
  return Buffer.concat([head, data, crc]);
}
