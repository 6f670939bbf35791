/** Format and pixel size of an encoded output, read from its header (PNG, JPEG, WebP). */

export type ImageKind = "png" | "jpeg" | "webp" | "pdf" | "unknown";

export function sniff(bytes: Uint8Array): ImageKind {
  if (bytes[0] === 0x89 && bytes[1] === 0x50 && bytes[2] === 0x4e && bytes[3] === 0x47)
    return "png";
  if (bytes[0] === 0xff && bytes[1] === 0xd8 && bytes[2] === 0xff) return "jpeg";
  const ascii = (from: number, to: number) => String.fromCharCode(...bytes.subarray(from, to));
  if (ascii(0, 4) === "RIFF" && ascii(8, 12) === "WEBP") return "webp";
  if (ascii(0, 5) === "%PDF-") return "pdf";
  return "unknown";
}

export function imageSize(bytes: Uint8Array): { width: number; height: number } | null {
  const b = (o: number) => bytes[o] ?? 0;
  const be16 = (o: number) => (b(o) << 8) | b(o + 1);
  const le16 = (o: number) => b(o) | (b(o + 1) << 8);
  const le24 = (o: number) => le16(o) | (b(o + 2) << 16);
  switch (sniff(bytes)) {
    case "png":
      return {
        width: ((b(16) << 24) | (b(17) << 16) | be16(18)) >>> 0,
        height: ((b(20) << 24) | (b(21) << 16) | be16(22)) >>> 0,
      };
    case "jpeg": {
      let o = 2;
      while (o + 9 < bytes.length) {
        if (b(o) !== 0xff) return null;
        const marker = b(o + 1);
        // SOF0..SOF15 except DHT (C4), JPG (C8) and DAC (CC) carry the frame size.
        if (
          marker >= 0xc0 &&
          marker <= 0xcf &&
          marker !== 0xc4 &&
          marker !== 0xc8 &&
          marker !== 0xcc
        ) {
          return { width: be16(o + 7), height: be16(o + 5) };
        }
        o += 2 + be16(o + 2);
      }
      return null;
    }
    case "webp": {
      const chunk = String.fromCharCode(...bytes.subarray(12, 16));
      if (chunk === "VP8X") return { width: le24(24) + 1, height: le24(27) + 1 };
      if (chunk === "VP8 ") return { width: le16(26) & 0x3fff, height: le16(28) & 0x3fff };
      if (chunk === "VP8L") {
        return {
          width: 1 + (((b(22) & 0x3f) << 8) | b(21)),
          height: 1 + (((b(24) & 0xf) << 10) | (b(23) << 2) | ((b(22) & 0xc0) >> 6)),
        };
      }
      return null;
    }
    default:
      return null;
  }
}

/** The IEND chunk every complete PNG ends with: length 0, type, CRC. */
const PNG_END = [0, 0, 0, 0, 0x49, 0x45, 0x4e, 0x44, 0xae, 0x42, 0x60, 0x82];

/**
 * A PNG whose structure is whole, read without decoding it: the signature, an IHDR chunk first
 * and IEND last. Catches a body cut short or padded after its end (the header alone says nothing
 * of the pixels that follow it).
 */
export function pngComplete(bytes: Uint8Array): boolean {
  if (sniff(bytes) !== "png" || bytes.length < 8 + 25 + PNG_END.length) return false;
  if (String.fromCharCode(...bytes.subarray(12, 16)) !== "IHDR") return false;
  const tail = bytes.subarray(bytes.length - PNG_END.length);
  return PNG_END.every((v, i) => tail[i] === v);
}
