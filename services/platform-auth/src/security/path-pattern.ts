/** A compiled path pattern: literal segments, `*` for one segment, a final `**` for any sub-path (or none). */
export interface PathPattern {
  source: string;
  segments: string[];
  /** Ends in `**`. */
  open: boolean;
  /** Literal segment count, then fewer `*`, then closed before open: larger is more specific. */
  specificity: [number, number, number];
}

/** Compiles a pattern such as `/api/v1/users/**`; throws for shapes the matcher does not support. */
export function compilePattern(source: string): PathPattern {
  const lower = source.trim().toLowerCase().replace(/\/+$/, '');
  if (!lower.startsWith('/')) throw new Error(`Path pattern must start with /: ${source}`);
  const segments = lower === '' ? [] : lower.slice(1).split('/');
  const open = segments[segments.length - 1] === '**';
  if (open) segments.pop();
  for (const s of segments) {
    if (s === '' || s === '**' || (s.includes('*') && s !== '*'))
      throw new Error(`Unsupported path pattern: ${source}`);
  }
  const literals = segments.filter((s) => s !== '*').length;
  const stars = segments.length - literals;
  return { source, segments, open, specificity: [literals, -stars, open ? 0 : 1] };
}

/** Whether a canonical path (see canonicalizePath) matches the pattern; `/a/**` also matches `/a`. */
export function matchesPattern(pattern: PathPattern, canonicalPath: string): boolean {
  const parts = canonicalPath === '/' ? [] : canonicalPath.slice(1).split('/');
  if (pattern.open ? parts.length < pattern.segments.length : parts.length !== pattern.segments.length)
    return false;
  return pattern.segments.every((s, i) => s === '*' || s === parts[i]);
}

/** Orders patterns by specificity: negative when `a` is more specific than `b`. */
export function compareSpecificity(a: PathPattern, b: PathPattern): number {
  for (let i = 0; i < 3; i++)
    if (a.specificity[i] !== b.specificity[i]) return b.specificity[i] - a.specificity[i];
  return 0;
}
