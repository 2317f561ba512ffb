import { AppError, NotFoundError } from '@care/service-kit';
import type { MemoryState } from './memory.model';

/** 404: no memory with this id in the partition. */
export class MemoryNotFoundError extends NotFoundError {
  constructor(id: string) {
    super(`No memory "${id}" in this partition`, 'MEMORY_NOT_FOUND');
  }
}

/**
 * 409: the memory exists but its state forbids the operation: forgotten (tombstoned, kept for audit),
 * merged into another memory, or an expired scratchpad entry. Codes MEMORY_FORGOTTEN, MEMORY_MERGED,
 * MEMORY_EXPIRED.
 */
export class MemoryStateError extends AppError {
  constructor(id: string, state: Exclude<MemoryState, 'ACTIVE' | 'SUPPRESSED'>, mergedInto?: string | null) {
    const why = {
      FORGOTTEN: 'was forgotten (tombstoned); it is kept for audit only',
      MERGED: `was merged into "${mergedInto}"`,
      EXPIRED: 'is a scratchpad entry whose time to live has passed',
    }[state];
    super(`MEMORY_${state}`, `Memory "${id}" ${why}`, 409, { extras: mergedInto ? { mergedInto } : {} });
  }
}

/** 409: the id is already used in this partition. */
export class MemoryExistsError extends AppError {
  constructor(id: string, what = 'a memory') {
    super('MEMORY_EXISTS', `The id "${id}" is already used by ${what} in this partition`, 409);
  }
}
