import type { Database } from '@care/db';
import type { Static, TenantConfigView as TenantConfigViewSchema } from '@care/contracts';
import { ValidationError } from '@care/service-kit';
import { unregisteredTenant } from '../db/db-errors';
import { findTenantConfig, upsertTenantConfig, type TenantConfigRecord } from './tenant-config.repository';
import type { ConfigPatch } from './tenant-config.schemas';

type TenantConfigView = Static<typeof TenantConfigViewSchema>;

const MAX_SETTINGS_BYTES = 64 * 1024;

/** RFC 7396 merge of one level: `null` deletes, other values replace. */
function merge(
  target: Record<string, unknown>,
  patch: Record<string, unknown> | undefined,
): Record<string, unknown> {
  const out = { ...target };
  for (const [k, v] of Object.entries(patch ?? {})) {
    if (v === null) delete out[k];
    else out[k] = v;
  }
  return out;
}

// Branding is validated field by field (tenant-config.schemas.ts): every stored value is a string.
const view = (tenantId: string, row: Omit<TenantConfigRecord, 'tenantId'> | undefined): TenantConfigView => ({
  tenantId,
  settings: row?.settings ?? {},
  branding: (row?.branding ?? {}) as TenantConfigView['branding'],
  updatedAt: row?.updatedAt.toISOString() ?? null,
});

/** Settings and branding of the caller's tenant; every query runs in the caller's tenant transaction. */
export class TenantConfigService {
  constructor(private readonly d: { db: Database; clock: () => Date }) {}

  get(tenantId: string): Promise<TenantConfigView> {
    return this.d.db.withTenant(tenantId, async (tx) => view(tenantId, await findTenantConfig(tx)));
  }

  /** The tenant's settings (for other features acting in that tenant, such as the chat defaults). */
  settingsOf(tenantId: string): Promise<Record<string, unknown>> {
    return this.d.db.withTenant(tenantId, async (tx) => (await findTenantConfig(tx))?.settings ?? {});
  }

  async patch(tenantId: string, patch: ConfigPatch): Promise<TenantConfigView> {
    try {
      return await this.d.db.withTenant(tenantId, async (tx) => {
        const row = await findTenantConfig(tx, true);
        const settings = merge(row?.settings ?? {}, patch.settings);
        if (Buffer.byteLength(JSON.stringify(settings)) > MAX_SETTINGS_BYTES) {
          throw new ValidationError('The settings are too large', [
            { pointer: '/settings', detail: 'at most 64 KiB of JSON' },
          ]);
        }
        const next = {
          tenantId: tenantId,
          settings,
          branding: merge(row?.branding ?? {}, patch.branding),
          updatedAt: this.d.clock(),
        };
        await upsertTenantConfig(tx, next);
        return view(tenantId, next);
      });
    } catch (err) {
      throw unregisteredTenant(err, tenantId);
    }
  }
}
