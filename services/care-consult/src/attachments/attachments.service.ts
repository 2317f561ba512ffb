import { createHash, randomUUID } from 'node:crypto';
import type { Database } from '@care/db';
import type { AttachmentList, AttachmentView as AttachmentViewSchema, Static } from '@care/contracts';
import { AppError, NotFoundError, ValidationError, csv, type Logger } from '@care/service-kit';
import type { AuditService } from '../audit/audit.service';
import type { AppConfig } from '../config';
import { AttachmentStorage, displayName, extensionOf } from './attachment.storage';
import { contradictsExtension, sniffContent } from './content-sniffer';
import {
  countOwned,
  deleteOwned,
  findOwned,
  insertAttachment,
  listOwned,
  type AttachmentRow,
} from './attachments.repository';

/** An attachment as the API shows it (never the stored path). */
type AttachmentView = Static<typeof AttachmentViewSchema>;

/** Who is acting. */
export interface Owner {
  tenantId: string;
  userId: string;
  requestId?: string;
}

/** An uploaded file as the route received it. */
export interface Upload {
  originalName: string | undefined;
  bytes: Buffer;
}

const UUID = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/;

function view(r: AttachmentRow): AttachmentView {
  return {
    id: r.id,
    name: r.name,
    mediaType: r.mediaType,
    size: r.sizeBytes,
    sha256: r.sha256,
    createdAt: r.createdAt.toISOString(),
  };
}

/**
 * The per-tenant, per-user attachment sandbox: bytes on the volume under generated names, metadata in
 * PostgreSQL under RLS. The type is sniffed from content and checked against ATTACHMENTS_ALLOWED_TYPES;
 * a name that claims another type is refused. Every outcome is audited without the file's content.
 */
export class AttachmentService {
  private readonly storage: AttachmentStorage;
  private readonly allowed: Set<string>;

  constructor(
    private readonly deps: {
      config: AppConfig;
      database: Database;
      audit: AuditService;
      logger: Logger;
      clock: () => Date;
    },
  ) {
    this.storage = new AttachmentStorage(deps.config.ATTACHMENTS_DIR);
    this.allowed = new Set(csv(deps.config.ATTACHMENTS_ALLOWED_TYPES).map((t) => t.toLowerCase()));
  }

  /** Checks, stores and records one upload. */
  async upload(owner: Owner, file: Upload): Promise<AttachmentView> {
    const name = displayName(file.originalName);
    const ext = extensionOf(name);
    const deny = (code: string, message: string, status: number) => {
      this.audit(owner, 'attachment.upload', null, 'denied', { reason: code, size: file.bytes.length });
      return new AppError(code, message, status);
    };
    if (file.bytes.length === 0) throw deny('ATTACHMENT_EMPTY', 'The file is empty', 400);
    if (file.bytes.length > this.deps.config.ATTACHMENTS_MAX_BYTES) {
      throw deny(
        'ATTACHMENT_TOO_LARGE',
        `The file is larger than ${this.deps.config.ATTACHMENTS_MAX_BYTES} bytes`,
        413,
      );
    }
    const sniffed = sniffContent(file.bytes, ext);
    if (!this.allowed.has(sniffed.mediaType)) {
      throw deny('ATTACHMENT_TYPE_NOT_ALLOWED', `Files of type ${sniffed.mediaType} are not accepted`, 415);
    }
    if (contradictsExtension(sniffed, ext)) {
      throw deny(
        'ATTACHMENT_TYPE_MISMATCH',
        `The file content (${sniffed.mediaType}) does not match its name`,
        415,
      );
    }
    const id = randomUUID();
    const row: AttachmentRow = {
      tenantId: owner.tenantId,
      id,
      ownerId: owner.userId,
      name,
      storedName: `${id}${sniffed.ext}`,
      mediaType: sniffed.mediaType,
      sizeBytes: file.bytes.length,
      sha256: createHash('sha256').update(file.bytes).digest('hex'),
      createdAt: this.deps.clock(),
    };
    let written = false;
    try {
      await this.deps.database.withTenant(owner.tenantId, async (tx) => {
        if ((await countOwned(tx, owner.userId)) >= this.deps.config.ATTACHMENTS_MAX_PER_USER) {
          throw deny(
            'ATTACHMENT_QUOTA_EXCEEDED',
            `At most ${this.deps.config.ATTACHMENTS_MAX_PER_USER} attachments are kept per user`,
            409,
          );
        }
        await insertAttachment(tx, row);
        // Written inside the transaction: if the file cannot be written the row rolls back.
        await this.storage.write(owner.tenantId, owner.userId, row.storedName, file.bytes);
        written = true;
      });
    } catch (err) {
      // The commit failed after the bytes landed: remove them so no file exists without its row.
      if (written)
        await this.storage.remove(owner.tenantId, owner.userId, row.storedName).catch(() => undefined);
      throw err;
    }
    this.audit(owner, 'attachment.upload', id, 'success', { mediaType: row.mediaType, size: row.sizeBytes });
    return view(row);
  }

  /** The caller's attachments, newest first. */
  async list(owner: Owner, limit = 100): Promise<Static<typeof AttachmentList>> {
    const [total, rows] = await this.deps.database.withTenant(
      owner.tenantId,
      async (tx) => [await countOwned(tx, owner.userId), await listOwned(tx, owner.userId, limit)] as const,
    );
    this.audit(owner, 'attachment.list', null, 'success', { results: rows.length });
    return { total, items: rows.map(view) };
  }

  /** Metadata of one of the caller's attachments; another user's or tenant's id is a plain 404. */
  async get(owner: Owner, id: string): Promise<AttachmentView> {
    return view(await this.find(owner, id, 'attachment.read'));
  }

  /** Metadata and bytes, for downloads and for the chat engine reading an attachment it was given. */
  async content(owner: Owner, id: string): Promise<{ meta: AttachmentView; bytes: Buffer }> {
    const row = await this.find(owner, id, 'attachment.download');
    return { meta: view(row), bytes: await this.storage.read(owner.tenantId, owner.userId, row.storedName) };
  }

  /** Deletes one of the caller's attachments (row, then bytes). */
  async remove(owner: Owner, id: string): Promise<void> {
    const row = await this.find(owner, id, 'attachment.delete');
    await this.deps.database.withTenant(owner.tenantId, (tx) => deleteOwned(tx, owner.userId, id));
    await this.storage.remove(owner.tenantId, owner.userId, row.storedName).catch((err: Error) => {
      this.deps.logger.warn({ err: err.message, attachmentId: id }, 'attachment bytes could not be removed');
    });
  }

  private async find(owner: Owner, id: string, action: string): Promise<AttachmentRow> {
    if (!UUID.test(id))
      throw new ValidationError('The attachment id is invalid', [
        { pointer: '/params/id', detail: 'must be a UUID' },
      ]);
    const row = await this.deps.database.withTenant(owner.tenantId, (tx) => findOwned(tx, owner.userId, id));
    this.audit(owner, action, id, row ? 'success' : 'failure');
    if (!row) throw new NotFoundError('No such attachment', 'ATTACHMENT_NOT_FOUND');
    return row;
  }

  private audit(
    owner: Owner,
    action: string,
    id: string | null,
    outcome: 'success' | 'failure' | 'denied',
    meta?: Record<string, string | number>,
  ) {
    void this.deps.audit.record({
      tenantId: owner.tenantId,
      actorId: owner.userId,
      action,
      resourceType: 'attachment',
      resourceId: id,
      outcome,
      requestId: owner.requestId,
      meta,
    });
  }
}
