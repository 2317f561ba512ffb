import { and, eq, gt, isNull } from 'drizzle-orm';
import type { TenantTx, Tx } from '@care/db';
import { refreshTokens } from '../db/schema';

/** A stored refresh token (by hash). */
interface RefreshTokenRecord {
  tenantId: string;
  tokenHash: string;
  familyId: string;
  userId: string;
  issuedAt: Date;
  expiresAt: Date;
  usedAt: Date | null;
  revokedAt: Date | null;
}

/** Stores a newly issued refresh token. */
export async function insertRefreshToken(tx: Tx, row: RefreshTokenRecord): Promise<void> {
  await tx.insert(refreshTokens).values(row);
}

/**
 * Marks a live token used and returns it, in one statement: of two concurrent calls for the same token only
 * one sees `used_at IS NULL` (the second waits on the row lock, re-checks, and gets nothing).
 */
export async function consumeRefreshToken(
  tx: TenantTx,
  tokenHash: string,
  now: Date,
): Promise<RefreshTokenRecord | undefined> {
  const [row] = await tx
    .update(refreshTokens)
    .set({ usedAt: now })
    .where(
      and(
        eq(refreshTokens.tenantId, tx.tenantId),
        eq(refreshTokens.tokenHash, tokenHash),
        isNull(refreshTokens.usedAt),
        isNull(refreshTokens.revokedAt),
        gt(refreshTokens.expiresAt, now),
      ),
    )
    .returning();
  return row;
}

/** The token row whatever its state. */
export async function findRefreshToken(
  tx: TenantTx,
  tokenHash: string,
): Promise<RefreshTokenRecord | undefined> {
  const [row] = await tx
    .select()
    .from(refreshTokens)
    .where(and(eq(refreshTokens.tenantId, tx.tenantId), eq(refreshTokens.tokenHash, tokenHash)));
  return row;
}

/** Revokes every not yet revoked token of a family; returns how many. */
export async function revokeFamily(tx: TenantTx, familyId: string, now: Date): Promise<number> {
  const rows = await tx
    .update(refreshTokens)
    .set({ revokedAt: now })
    .where(
      and(
        eq(refreshTokens.tenantId, tx.tenantId),
        eq(refreshTokens.familyId, familyId),
        isNull(refreshTokens.revokedAt),
      ),
    )
    .returning({ h: refreshTokens.tokenHash });
  return rows.length;
}

/** Revokes every live token of a user (password or role change). */
export async function revokeUserTokens(tx: TenantTx, userId: string, now: Date): Promise<number> {
  const rows = await tx
    .update(refreshTokens)
    .set({ revokedAt: now })
    .where(
      and(
        eq(refreshTokens.tenantId, tx.tenantId),
        eq(refreshTokens.userId, userId),
        isNull(refreshTokens.revokedAt),
      ),
    )
    .returning({ h: refreshTokens.tokenHash });
  return rows.length;
}
