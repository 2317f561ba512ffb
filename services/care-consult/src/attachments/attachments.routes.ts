import { Router, type RequestHandler } from 'express';
import multer from 'multer';
import {
  AppError,
  hasControlCharacters,
  hasLoneSurrogate,
  ValidationError,
  callerOf,
  requestIdOf,
} from '@care/service-kit';
import type { AppDeps } from '../app';
import type { AppConfig } from '../config';
import type { Owner } from './attachments.service';

/** The multipart field holding the file. */
const ATTACHMENT_FIELD = 'file';

/**
 * Parses one multipart file into memory, bounded by ATTACHMENTS_MAX_BYTES; multer's limit errors become
 * problems (413 too large, 400 for other malformed uploads). Nothing reaches the disk before the checks.
 */
function singleFile(config: AppConfig): RequestHandler {
  const upload = multer({
    storage: multer.memoryStorage(),
    limits: {
      fileSize: config.ATTACHMENTS_MAX_BYTES,
      files: 1,
      fields: 5,
      parts: 6,
      fieldNameSize: 64,
      headerPairs: 50,
    },
    defParamCharset: 'utf8',
  } as multer.Options).single(ATTACHMENT_FIELD);
  return (req, res, next) =>
    upload(req, res, (err: unknown) => {
      if (!err) return next();
      if (err instanceof multer.MulterError) {
        if (err.code === 'LIMIT_FILE_SIZE')
          return next(
            new AppError(
              'ATTACHMENT_TOO_LARGE',
              `The file is larger than ${config.ATTACHMENTS_MAX_BYTES} bytes`,
              413,
            ),
          );
        const detail =
          err.code === 'LIMIT_UNEXPECTED_FILE'
            ? `send exactly one file in the "${ATTACHMENT_FIELD}" field`
            : err.message;
        return next(
          new ValidationError(
            'The upload is invalid',
            [{ pointer: `/${ATTACHMENT_FIELD}`, detail }],
            'INVALID_UPLOAD',
          ),
        );
      }
      // Anything else the parser throws (busboy: "Unexpected end of form", "Malformed part header", a missing
      // boundary) is about the body the client sent: memory storage touches no disk (ADR 0005).
      next(
        new ValidationError(
          'The multipart body is malformed',
          [{ pointer: '/body', detail: 'is not a well-formed multipart/form-data body' }],
          'MALFORMED_MULTIPART',
        ),
      );
    });
}

/** `POST /api/attachments` (multipart, field `file`), `GET /api/attachments`, `GET|DELETE /api/attachments/{id}`, `GET .../content`. */
export function attachmentsRoutes(deps: Pick<AppDeps, 'config' | 'attachments'>): Router {
  const router = Router();
  const owner = (req: Parameters<RequestHandler>[0]): Owner => {
    const p = callerOf(req);
    return { tenantId: p.tenantId, userId: p.userId, requestId: requestIdOf(req) };
  };

  router.post('/api/attachments', singleFile(deps.config), async (req, res) => {
    if (!req.is('multipart/form-data') || !req.file) {
      throw new ValidationError(
        'A multipart/form-data body with one file is required',
        [{ pointer: `/${ATTACHMENT_FIELD}`, detail: 'is required' }],
        'FILE_REQUIRED',
      );
    }
    const name = req.file.originalname;
    if (hasControlCharacters(name) || /[\r\n\t]/.test(name) || hasLoneSurrogate(name)) {
      throw new ValidationError(
        'The file name is invalid',
        [{ pointer: `/${ATTACHMENT_FIELD}/filename`, detail: 'must not contain control characters' }],
        'INVALID_FILENAME',
      );
    }
    const created = await deps.attachments.upload(owner(req), {
      originalName: req.file.originalname,
      bytes: req.file.buffer,
    });
    res.status(201).location(`/api/attachments/${created.id}`).json(created);
  });

  router.get('/api/attachments', async (req, res) => {
    res.json(await deps.attachments.list(owner(req)));
  });

  router.get('/api/attachments/:id', async (req, res) => {
    res.json(await deps.attachments.get(owner(req), req.params.id));
  });

  router.get('/api/attachments/:id/content', async (req, res) => {
    const { meta, bytes } = await deps.attachments.content(owner(req), req.params.id);
    // Always a download, never rendered inline: an uploaded file must not run as a page of this origin.
    res
      .status(200)
      .type(meta.mediaType)
      .setHeader('Content-Disposition', `attachment; filename*=UTF-8''${encodeURIComponent(meta.name)}`)
      .setHeader('X-Content-Type-Options', 'nosniff')
      .setHeader('Cache-Control', 'private, no-store')
      .send(bytes);
  });

  router.delete('/api/attachments/:id', async (req, res) => {
    await deps.attachments.remove(owner(req), req.params.id);
    res.status(204).end();
  });

  return router;
}
