// Duration texts of the system endpoints: a human one for status, ISO 8601 for health and metrics.

function parts(seconds: number): { d: number; h: number; m: number; s: number } {
  const total = Math.max(0, Math.floor(seconds));
  return {
    d: Math.floor(total / 86400),
    h: Math.floor((total % 86400) / 3600),
    m: Math.floor((total % 3600) / 60),
    s: total % 60,
  };
}

/** `3d 4h 5m 6s`, leading zero units left out (`0s` for zero). */
export function humanDuration(seconds: number): string {
  const { d, h, m, s } = parts(seconds);
  const out = [d && `${d}d`, (d || h) && `${h}h`, (d || h || m) && `${m}m`, `${s}s`].filter(Boolean);
  return out.join(' ');
}

/** ISO 8601 duration in whole seconds: `P3DT4H5M6S`, `PT0S` for zero. */
export function isoDuration(seconds: number): string {
  const { d, h, m, s } = parts(seconds);
  const time = `${h ? `${h}H` : ''}${m ? `${m}M` : ''}${s || (!d && !h && !m) ? `${s}S` : ''}`;
  return `P${d ? `${d}D` : ''}${time ? `T${time}` : ''}`;
}

/** Bytes as a megabyte figure, e.g. `123.4 MB`. */
export function megabytes(bytes: number): string {
  return `${(bytes / 1048576).toFixed(1)} MB`;
}
