import path from 'node:path';
import fc from 'fast-check';
import {
  AttachmentStorage,
  displayName,
  extensionOf,
  pathKey,
} from '../../src/attachments/attachment.storage';
import { contradictsExtension, sniffContent } from '../../src/attachments/content-sniffer';

describe('attachment names and paths', () => {
  it('turns any client name into one harmless segment: no separators, no control or bidi characters, bounded', () => {
    fc.assert(
      fc.property(fc.string({ unit: 'binary', maxLength: 400 }), (name) => {
        const shown = displayName(name);
        expect(shown).not.toMatch(/[\\/]/);
        // eslint-disable-next-line no-control-regex
        expect(shown).not.toMatch(/[\u0000-\u001f\u007f\u202a-\u202e\u2066-\u2069]/);
        expect(['', '.', '..']).not.toContain(shown);
        expect(shown.length).toBeLessThanOrEqual(200);
      }),
    );
  });

  it('keys folders by a hash, so any tenant or user id stays one segment inside the root', () => {
    const storage = new AttachmentStorage('/var/att');
    fc.assert(
      fc.property(fc.string(), fc.string(), (tenant, user) => {
        const dir = storage.userDir(tenant, user);
        expect(path.relative('/var/att', dir).split(path.sep)).toEqual([
          pathKey(tenant),
          pathKey(tenant, user),
        ]);
      }),
    );
    expect(pathKey('a', 'bc')).not.toBe(pathKey('ab', 'c'));
  });

  it('reads extensions only when they are short and plain', () => {
    expect(extensionOf('Scan.PDF')).toBe('.pdf');
    expect(extensionOf('archive.tar.gz')).toBe('.gz');
    expect(extensionOf('noext')).toBe('');
    expect(extensionOf('weird.p d f')).toBe('');
  });
});

describe('content sniffing', () => {
  it('identifies binary formats by their bytes whatever the name says', () => {
    expect(sniffContent(Buffer.from('%PDF-1.7 ...'), '.txt').mediaType).toBe('application/pdf');
    expect(sniffContent(Buffer.from([0xff, 0xd8, 0xff, 0xe0, 0, 0]), '').mediaType).toBe('image/jpeg');
    expect(sniffContent(Buffer.from('RIFF\0\0\0\0WEBPVP8 '), '').mediaType).toBe('image/webp');
    expect(sniffContent(Buffer.from('RIFF\0\0\0\0WAVEfmt '), '').mediaType).toBe('application/octet-stream');
  });

  it('treats valid UTF-8 without control characters as text, typed by a text extension', () => {
    expect(sniffContent(Buffer.from('# Notes\n\u00e9t\u00e9\n'), '.md')).toEqual({
      mediaType: 'text/markdown',
      ext: '.md',
      text: true,
    });
    expect(sniffContent(Buffer.from('a,b\n1,2\n'), '.csv').mediaType).toBe('text/csv');
    expect(sniffContent(Buffer.from('plain'), '.html').mediaType).toBe('text/plain');
    expect(sniffContent(Buffer.from([0xc3, 0x28]), '.txt').mediaType).toBe('application/octet-stream');
    expect(sniffContent(Buffer.from('a\u0000b'), '.txt').mediaType).toBe('application/octet-stream');
  });

  it('flags names that claim a different type than the content', () => {
    const png = sniffContent(Buffer.from([0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a]), '.pdf');
    expect(contradictsExtension(png, '.pdf')).toBe(true);
    expect(contradictsExtension(png, '.png')).toBe(false);
    expect(contradictsExtension(png, '.txt')).toBe(true);
    expect(contradictsExtension(sniffContent(Buffer.from('hi'), '.exe'), '.exe')).toBe(true);
    expect(contradictsExtension(sniffContent(Buffer.from('hi'), ''), '')).toBe(false);
  });
});
