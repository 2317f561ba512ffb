import { AppError } from '@care/service-kit';

/** 409: the partition was built with another embedding model or size; spaces are never mixed. */
export class EmbeddingSpaceMismatchError extends AppError {
  constructor(
    partition: { embeddingModel: string; dimension: number },
    current: { model: string; dimension?: number },
  ) {
    super(
      'EMBEDDING_SPACE_MISMATCH',
      `This partition holds vectors of ${partition.embeddingModel} (${partition.dimension}-d); the configured provider is ${current.model}` +
        `${current.dimension ? ` (${current.dimension}-d)` : ''}. Use a new partition or the original provider.`,
      409,
      {
        extras: {
          partitionModel: partition.embeddingModel,
          partitionDimension: partition.dimension,
          providerModel: current.model,
        },
      },
    );
  }
}
