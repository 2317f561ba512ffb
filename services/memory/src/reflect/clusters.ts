// Grouping for consolidation, pure: greedy seed-and-neighbours groups (no chaining through intermediates).

/**
 * Walks `seeds` in order; each seed not yet taken forms a group with its neighbours that are not yet taken.
 * Groups smaller than `minSize` are dropped and their members stay free for later seeds. Every id ends in at
 * most one group, and a group's members are all direct neighbours of its seed (so a chain a~b~c with a and c
 * far apart is not merged into one group through b).
 */
export function greedyGroups(
  seeds: string[],
  neighbours: ReadonlyMap<string, readonly string[]>,
  minSize: number,
): string[][] {
  const taken = new Set<string>();
  const groups: string[][] = [];
  for (const seed of seeds) {
    if (taken.has(seed)) continue;
    const group = [
      seed,
      ...[...new Set(neighbours.get(seed) ?? [])].filter((n) => n !== seed && !taken.has(n)),
    ];
    if (group.length < minSize) continue;
    for (const id of group) taken.add(id);
    groups.push(group);
  }
  return groups;
}

/** Normalised mean of unit vectors: the centre of a group in cosine space. */
export function centroid(vectors: number[][]): number[] {
  const out = new Array<number>(vectors[0]?.length ?? 0).fill(0);
  for (const v of vectors) for (let i = 0; i < out.length; i++) out[i] += v[i];
  const norm = Math.hypot(...out);
  return norm > 0 ? out.map((x) => x / norm) : out;
}

/** Index of the member closest to all others (highest summed dot product): the group's most typical text. */
export function medoidIndex(vectors: number[][]): number {
  let best = 0;
  let bestSum = -Infinity;
  vectors.forEach((a, i) => {
    let sum = 0;
    for (const b of vectors) for (let k = 0; k < a.length; k++) sum += a[k] * b[k];
    if (sum > bestSum) {
      bestSum = sum;
      best = i;
    }
  });
  return best;
}
