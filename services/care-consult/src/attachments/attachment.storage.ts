import { createHash } from 'node:crypto';
import { mkdir, readFile, rm, writeFile } from 'node:fs/promises';
import path from 'node:path';

/** Folder-name key of an id: ids come from tokens and may hold any character, so they never become paths. */
export function pathKey(...parts: string[]): string {
  return createHash('sha256').update(parts.join('\u0000')).digest('hex').slice(0, 32);
}

/** Longest display name kept (bytes are stored under a generated name regardless). */
const MAX_NAME = 200;

/**
 * The name shown back to the user: the last path segment of what the client sent (either slash), control
 * and bidi-override characters removed, NFC, bounded length. Never used to build a path.
 */
export function displayName(original: string | undefined): string {
  const last = (original ?? '').split(/[\\/]/).pop() ?? '';
  const clean = last
    .normalize('NFC')
    // eslint-disable-next-line no-control-regex
    .replace(/[\u0000-\u001f\u007f\u202a-\u202e\u2066-\u2069]/g, '')
    .trim()
    .replace(/^\.+$/, '');
  return clean.slice(0, MAX_NAME) || 'attachment';
}

/** The lower-case extension of a display name (`.pdf`), or '' when it has none. */
export function extensionOf(name: string): string {
  const ext = path.extname(name).toLowerCase();
  return /^\.[a-z0-9]{1,10}$/.test(ext) ? ext : '';
}

/**
 * Bytes of attachments under `root/<tenant key>/<user key>/<generated name>`. Folders are 0700, files 0600
 * and written with `wx` (never overwrite); every path is checked to stay inside the user's folder.
 */
export class AttachmentStorage {
  constructor(private readonly root: string) {}

  /** The sandbox folder of one user of one tenant. */
  userDir(tenantId: string, userId: string): string {
    return path.join(path.resolve(this.root), pathKey(tenantId), pathKey(tenantId, userId));
  }

  private fileOf(tenantId: string, userId: string, storedName: string): string {
    if (!/^[0-9a-f-]{36}\.[a-z0-9]{1,10}$/.test(storedName))
      throw new Error('invalid stored attachment name');
    const dir = this.userDir(tenantId, userId);
    const full = path.join(dir, storedName);
    if (path.dirname(full) !== dir) throw new Error('attachment path escapes its sandbox');
    return full;
  }

  /** Writes a new file; fails if the name exists. */
  async write(tenantId: string, userId: string, storedName: string, bytes: Buffer): Promise<void> {
    await mkdir(this.userDir(tenantId, userId), { recursive: true, mode: 0o700 });
    await writeFile(this.fileOf(tenantId, userId, storedName), bytes, { flag: 'wx', mode: 0o600 });
  }

  /** Reads a stored file. */
  read(tenantId: string, userId: string, storedName: string): Promise<Buffer> {
    return readFile(this.fileOf(tenantId, userId, storedName));
  }

  /** Removes a stored file (missing is fine). */
  async remove(tenantId: string, userId: string, storedName: string): Promise<void> {
    await rm(this.fileOf(tenantId, userId, storedName), { force: true });
  }
}
