import type { Database } from '@care/db';
import { NotFoundError, ValidationError } from '@care/service-kit';
import type { RequestContext } from '../security/request-context';
import { FOREIGN_KEY_VIOLATION, sqlState } from '../shared/db-errors';
import { findTenantConfig, upsertTenantConfig } from './tenant-config.repository';
import type { ConfigPatch } from './tenant-config.schemas';

/** The tenant's configuration as the API shows it. */
export interface TenantConfigView {
  tenantId: string;
  settings: Record<string, unknown>;
  branding: Record<string, unknown>;
  updatedAt: string | null;
}

/** Settings and branding of the caller's tenant. */
export interface TenantConfigService {
  get(ctx: RequestContext): Promise<TenantConfigView>;
  patch(ctx: RequestContext, patch: ConfigPatch): Promise<TenantConfigView>;
}

const MAX_SETTINGS_BYTES = 64 * 1024;

/** RFC 7396 merge of one level: `null` deletes, other values replace. */
function merge(target: Record<string, unknown>, patch: Record<string, unknown> | undefined): Record<string, unknown> {
  const out = { ...target };
  for (const [k, v] of Object.entries(patch ?? {})) {
    if (v === null) delete out[k];
    else out[k] = v;
  }
  return out;
}

/** Creates the tenant configuration service; every query runs in the caller's tenant transaction. */
export function createTenantConfigService(d: { db: Database; clock: () => Date }): TenantConfigService {
  return {
    get: (ctx) =>
      d.db.withTenant(ctx.tenantId, async (tx) => {
        const row = await findTenantConfig(tx, ctx.tenantId);
        return { tenantId: ctx.tenantId, settings: row?.settings ?? {}, branding: row?.branding ?? {}, updatedAt: row?.updatedAt.toISOString() ?? null };
      }),
    async patch(ctx, patch) {
      try {
        return await d.db.withTenant(ctx.tenantId, async (tx) => {
          const row = await findTenantConfig(tx, ctx.tenantId, true);
          const settings = merge(row?.settings ?? {}, patch.settings);
          if (Buffer.byteLength(JSON.stringify(settings)) > MAX_SETTINGS_BYTES) {
            throw new ValidationError('The settings are too large', [{ pointer: '/settings', detail: 'at most 64 KiB of JSON' }]);
          }
          const next = { tenantId: ctx.tenantId, settings, branding: merge(row?.branding ?? {}, patch.branding), updatedAt: d.clock() };
          await upsertTenantConfig(tx, next);
          return { ...next, updatedAt: next.updatedAt.toISOString() };
        });
      } catch (err) {
        if (sqlState(err) === FOREIGN_KEY_VIOLATION) throw new NotFoundError(`Tenant ${ctx.tenantId} is not registered; a platform administrator must create it`, 'TENANT_NOT_FOUND');
        throw err;
      }
    },
  };
}
