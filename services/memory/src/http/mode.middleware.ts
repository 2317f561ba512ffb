import type { RequestHandler } from 'express';
import { AppError } from '@care/service-kit';

/** 404 MODE_DISABLED for memory endpoints when the operating mode is RAG (ADR 0301). */
export function memoryModeGuard(mode: string): RequestHandler {
  return (_req, _res, next) => {
    if (mode !== 'RAG') return next();
    next(
      new AppError(
        'MODE_DISABLED',
        'Memory operations are disabled: OPERATING_MODE is RAG (documents only)',
        404,
      ),
    );
  };
}
