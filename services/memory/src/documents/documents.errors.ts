import { ValidationError } from '@care/service-kit';

/** 400: a document vector whose size is not the partition's. */
export class VectorDimensionError extends ValidationError {
  constructor(got: number, expected: number) {
    super(
      `The vector has ${got} dimensions; this partition's embedding space has ${expected}`,
      [{ pointer: '/vector', detail: `must have exactly ${expected} numbers` }],
      'VECTOR_DIMENSION_MISMATCH',
    );
  }
}
