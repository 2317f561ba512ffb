import { randomBytes } from 'node:crypto';
import bcrypt from 'bcrypt';
import { ValidationError } from '@care/service-kit';

/** bcrypt reads at most 72 bytes; longer passwords would be silently truncated, so they are refused. */
const MAX_PASSWORD_BYTES = 72;
/** Shortest password accepted when one is set (login itself checks any length). */
const MIN_PASSWORD_LENGTH = 8;

/**
 * Hashes and checks passwords with bcrypt (native `bcrypt` package, work done off the event loop). One instance is
 * shared: its dummy hash is made once, lazily, at the same cost.
 */
export class PasswordHasher {
  private dummy: Promise<string> | undefined;

  constructor(readonly cost: number) {}

  hash(password: string): Promise<string> {
    return bcrypt.hash(password, this.cost);
  }

  /** Compares against `hash`, or against a dummy hash of the same cost when there is no user (equal timing). */
  async verify(password: string, hash: string | undefined): Promise<boolean> {
    const target =
      hash ?? (await (this.dummy ??= bcrypt.hash(randomBytes(24).toString('base64url'), this.cost)));
    const ok = await bcrypt.compare(password, target);
    return ok && hash !== undefined;
  }
}

/** Throws 400 PASSWORD_TOO_LONG for a password bcrypt would truncate. */
export function assertPasswordLength(password: string, pointer = '/password'): void {
  if (Buffer.byteLength(password, 'utf8') > MAX_PASSWORD_BYTES) {
    throw new ValidationError(
      'The password is longer than 72 bytes',
      [{ pointer, detail: `must be at most ${MAX_PASSWORD_BYTES} bytes (UTF-8)` }],
      'PASSWORD_TOO_LONG',
    );
  }
}

/** Checks a new password: 8 characters to 72 bytes. */
export function assertNewPassword(password: string, pointer = '/password'): void {
  assertPasswordLength(password, pointer);
  if ([...password].length < MIN_PASSWORD_LENGTH) {
    throw new ValidationError(
      'The password is too short',
      [{ pointer, detail: `must have at least ${MIN_PASSWORD_LENGTH} characters` }],
      'PASSWORD_TOO_SHORT',
    );
  }
}
