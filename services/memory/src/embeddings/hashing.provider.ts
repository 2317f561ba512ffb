import { createHash } from 'node:crypto';
import { normalize, type EmbeddingProvider } from './embedding-provider';

/** Words of a text: lower-case letters and digits runs (Unicode aware). */
function words(text: string): string[] {
  return text.toLowerCase().match(/[\p{L}\p{N}]+/gu) ?? [];
}

/**
 * Documented fallback, never the default: signed feature hashing of words and word pairs into a fixed-size
 * unit vector. Deterministic and dependency-free, but it knows no synonyms: texts are close only when they
 * share words. Useful where no model can be loaded, and in tests that need exact control of similarity.
 */
export class HashingEmbeddingProvider implements EmbeddingProvider {
  readonly kind = 'hashing';
  readonly model: string;
  readonly location = 'in-process';

  constructor(private readonly size = 512) {
    this.model = `hashing:words-v1-${size}`;
  }

  async dimension(): Promise<number> {
    return this.size;
  }

  async embed(texts: string[]): Promise<number[][]> {
    return texts.map((t) => this.vector(t));
  }

  /** The vector of one text (synchronous; exposed for tests and benches). */
  vector(text: string): number[] {
    const v = new Array<number>(this.size).fill(0);
    const w = words(text);
    const features = [...w, ...w.slice(1).map((x, i) => `${w[i]} ${x}`)];
    for (const f of features) {
      const h = createHash('sha256').update(f).digest();
      const index = h.readUInt32BE(0) % this.size;
      // The sign bit keeps colliding features from always adding up (the "hashing trick").
      v[index] += h[4] & 1 ? 1 : -1;
    }
    return normalize(v);
  }
}
