/** A media type recognised from the bytes themselves, with the extension files of that type are stored under. */
export interface SniffedType {
  mediaType: string;
  ext: string;
  /** Text types may be told apart by the declared extension (`.md`, `.csv`); binary types never are. */
  text: boolean;
}

const SIGNATURES: Array<{
  magic: number[];
  offset?: number;
  type: SniffedType;
  also?: (b: Buffer) => boolean;
}> = [
  { magic: [0x25, 0x50, 0x44, 0x46, 0x2d], type: { mediaType: 'application/pdf', ext: '.pdf', text: false } },
  {
    magic: [0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a],
    type: { mediaType: 'image/png', ext: '.png', text: false },
  },
  { magic: [0xff, 0xd8, 0xff], type: { mediaType: 'image/jpeg', ext: '.jpg', text: false } },
  { magic: [0x47, 0x49, 0x46, 0x38], type: { mediaType: 'image/gif', ext: '.gif', text: false } },
  {
    magic: [0x52, 0x49, 0x46, 0x46],
    type: { mediaType: 'image/webp', ext: '.webp', text: false },
    also: (b) => b.subarray(8, 12).toString('latin1') === 'WEBP',
  },
  { magic: [0x50, 0x4b, 0x03, 0x04], type: { mediaType: 'application/zip', ext: '.zip', text: false } },
  { magic: [0x4d, 0x5a], type: { mediaType: 'application/x-msdownload', ext: '.exe', text: false } },
  { magic: [0x7f, 0x45, 0x4c, 0x46], type: { mediaType: 'application/x-elf', ext: '.bin', text: false } },
];

const TEXT_BY_EXT: Record<string, string> = {
  '.md': 'text/markdown',
  '.markdown': 'text/markdown',
  '.csv': 'text/csv',
  '.txt': 'text/plain',
  '.text': 'text/plain',
  '.log': 'text/plain',
};

/** Extensions whose meaning is a binary format: a text body under such a name is a mismatch. */
const BINARY_EXT: Record<string, string> = {
  '.pdf': 'application/pdf',
  '.png': 'image/png',
  '.jpg': 'image/jpeg',
  '.jpeg': 'image/jpeg',
  '.gif': 'image/gif',
  '.webp': 'image/webp',
  '.zip': 'application/zip',
  '.docx': 'application/zip',
  '.exe': 'application/x-msdownload',
};

const UTF8 = new TextDecoder('utf-8', { fatal: true });

/** Valid UTF-8 with no control characters other than tab, line feed, form feed and carriage return. */
function looksLikeText(buf: Buffer): boolean {
  let text: string;
  try {
    text = UTF8.decode(buf);
  } catch {
    return false;
  }
  // eslint-disable-next-line no-control-regex
  return !/[\u0000-\u0008\u000b\u000e-\u001f\u007f]/.test(text);
}

/**
 * Identifies a file by its content (magic bytes, else UTF-8 text), never by what the client says. The
 * declared extension only picks among text types. `application/octet-stream` means unknown binary.
 */
export function sniffContent(buf: Buffer, declaredExt: string): SniffedType {
  for (const s of SIGNATURES) {
    const at = s.offset ?? 0;
    if (
      buf.length >= at + s.magic.length &&
      s.magic.every((byte, i) => buf[at + i] === byte) &&
      (!s.also || s.also(buf))
    )
      return s.type;
  }
  if (looksLikeText(buf)) {
    const mediaType = TEXT_BY_EXT[declaredExt] ?? 'text/plain';
    return { mediaType, ext: declaredExt in TEXT_BY_EXT ? declaredExt : '.txt', text: true };
  }
  return { mediaType: 'application/octet-stream', ext: '.bin', text: false };
}

/**
 * True when the declared extension contradicts the content: a known binary extension on different bytes
 * (`report.pdf` holding a PNG or a script), or a binary format under a text extension.
 */
export function contradictsExtension(sniffed: SniffedType, declaredExt: string): boolean {
  if (!declaredExt) return false;
  const claimedBinary = BINARY_EXT[declaredExt];
  if (claimedBinary) return claimedBinary !== sniffed.mediaType;
  if (declaredExt in TEXT_BY_EXT) return !sniffed.text;
  return false;
}
