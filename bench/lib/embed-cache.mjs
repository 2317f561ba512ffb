// Embeds texts through a sentence encoder, each text once, in batches of 32; with a cache file (a trainer's
// `--cache FILE`, never committed) the vectors are kept between runs while iterating.
import { existsSync, readFileSync, writeFileSync } from 'node:fs';

/** `embedAll(texts)`: one vector (an array of numbers) per text, in order. */
export function cachedEmbedder(encoder, cachePath) {
  const cache = new Map(
    cachePath && existsSync(cachePath) ? Object.entries(JSON.parse(readFileSync(cachePath, 'utf8'))) : [],
  );
  return async function embedAll(texts) {
    const missing = [...new Set(texts.filter((t) => !cache.has(t)))];
    for (let i = 0; i < missing.length; i += 32) {
      const vectors = await encoder.embed(missing.slice(i, i + 32));
      vectors.forEach((v, j) => cache.set(missing[i + j], Array.from(v)));
    }
    if (cachePath && missing.length > 0) writeFileSync(cachePath, JSON.stringify(Object.fromEntries(cache)));
    return texts.map((t) => cache.get(t));
  };
}
