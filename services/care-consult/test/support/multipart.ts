import { randomBytes } from 'node:crypto';

/**
 * A raw multipart/form-data body with one file part, written by hand so the test controls the filename
 * byte for byte (HTTP clients strip `../` from names, which would hide the server's own handling).
 */
export function multipart(
  filename: string,
  bytes: Buffer,
  opts: { field?: string; contentType?: string } = {},
) {
  const boundary = `----care${randomBytes(8).toString('hex')}`;
  const head =
    `--${boundary}\r\n` +
    `Content-Disposition: form-data; name="${opts.field ?? 'file'}"; filename="${filename.replace(/"/g, '%22')}"\r\n` +
    `Content-Type: ${opts.contentType ?? 'application/octet-stream'}\r\n\r\n`;
  const body = Buffer.concat([Buffer.from(head, 'utf8'), bytes, Buffer.from(`\r\n--${boundary}--\r\n`)]);
  return { body, contentType: `multipart/form-data; boundary=${boundary}` };
}

/** Small valid-looking files of each kind, by magic bytes. */
export const FILES = {
  pdf: Buffer.from('%PDF-1.4\n1 0 obj << /Type /Catalog >> endobj\ntrailer << /Root 1 0 R >>\n%%EOF\n'),
  png: Buffer.concat([Buffer.from([0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a]), Buffer.alloc(32, 1)]),
  elf: Buffer.concat([Buffer.from([0x7f, 0x45, 0x4c, 0x46, 2, 1, 1]), Buffer.alloc(64)]),
  exe: Buffer.concat([Buffer.from('MZ'), Buffer.alloc(64, 0x90)]),
  zip: Buffer.concat([Buffer.from([0x50, 0x4b, 0x03, 0x04]), Buffer.alloc(40)]),
  text: Buffer.from('Blood pressure log\n120/80 morning\n'),
  binary: Buffer.from([0x00, 0x01, 0x02, 0xfe, 0xff, 0x00, 0x10]),
};
