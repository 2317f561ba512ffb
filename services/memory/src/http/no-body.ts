import { Type } from '@care/contracts';
import { validate } from '@care/service-kit';

/** Body of the operations that take none (ADR 0301): an absent or empty JSON object, nothing else. */
export const NoBody = Type.Object({}, { additionalProperties: false });

/** Validates the body against `schema` only when there is one (an absent body passes). */
export function optionalBody(schema = NoBody): ReturnType<typeof validate> {
  const check = validate({ body: schema });
  return ((req, res, next) => (req.body === undefined ? next() : check(req, res, next))) as typeof check;
}
