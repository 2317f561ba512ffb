import { validate } from '@care/service-kit';
import { NoBody } from '../memories/memories.schemas';

/** Validates the body against `schema` only when there is one (an absent body passes). */
export function optionalBody(schema = NoBody): ReturnType<typeof validate> {
  const check = validate({ body: schema });
  return ((req, res, next) => (req.body === undefined ? next() : check(req, res, next))) as typeof check;
}
