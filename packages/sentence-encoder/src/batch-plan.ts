/**
 * Splits texts into model calls at the least estimated cost. USE-lite pads every text of a call to the longest
 * one, so a call costs a fixed part (about 250 kernel launches) plus one part per padded position:
 * `overhead + size * longest`, in characters. Sorted by length, the best split into consecutive runs is found
 * exactly by dynamic programming (n is a few dozen at most).
 *
 * `maxPadded` bounds one call's padded size (`size * longest`; a longer text still goes alone): the WASM heap grows
 * to fit the largest call's activations and never shrinks, so this bounds the process's memory, not only the call's.
 *
 * Returns the texts' indexes, grouped per call (shortest texts first).
 */
export function planBatches(
  lengths: readonly number[],
  options: { overhead: number; maxBatch: number; maxPadded?: number },
): number[][] {
  const order = lengths.map((_, i) => i).sort((a, b) => lengths[a]! - lengths[b]! || a - b);
  const n = order.length;
  // best[i]: least cost of the first i sorted texts; cut[i]: where the last call of that best plan starts.
  const best = new Array<number>(n + 1).fill(Infinity);
  const cut = new Array<number>(n + 1).fill(0);
  best[0] = 0;
  for (let end = 1; end <= n; end++) {
    const longest = Math.max(1, lengths[order[end - 1]!]!);
    const size = Math.max(
      1,
      Math.min(options.maxBatch, Math.floor((options.maxPadded ?? Infinity) / longest)),
    );
    for (let start = Math.max(0, end - size); start < end; start++) {
      const cost = best[start]! + options.overhead + (end - start) * longest;
      if (cost < best[end]!) {
        best[end] = cost;
        cut[end] = start;
      }
    }
  }
  const calls: number[][] = [];
  for (let end = n; end > 0; end = cut[end]!) calls.unshift(order.slice(cut[end], end));
  return calls;
}
