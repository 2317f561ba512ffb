import { readFileSync } from 'node:fs';
import path from 'node:path';

/** What /actuator/info reports about the build. */
export interface BuildInfo {
  name: string;
  version: string;
  time: string | null;
  git: { commit: string; branch: string | null; time: string | null };
}

/**
 * Reads `build-info.json` (written next to dist/ by `scripts/write-build-info.mjs` at build time) and the package
 * version; `GIT_COMMIT` from the environment wins over the recorded commit (images built without .git).
 */
export function loadBuildInfo(
  gitCommitEnv: string | undefined,
  distDir = path.join(__dirname, '..'),
): BuildInfo {
  const read = (file: string): Record<string, unknown> => {
    try {
      return JSON.parse(readFileSync(file, 'utf8')) as Record<string, unknown>;
    } catch {
      return {};
    }
  };
  const pkg = read(path.join(distDir, '..', 'package.json'));
  const recorded = read(path.join(distDir, 'build-info.json'));
  const git = (recorded.git ?? {}) as Record<string, unknown>;
  const str = (v: unknown) => (typeof v === 'string' && v ? v : null);
  return {
    name: str(pkg.name) ?? '@care/platform-auth',
    version: str(pkg.version) ?? str(recorded.version) ?? '0.0.0',
    time: str(recorded.time),
    git: {
      commit: gitCommitEnv || str(git.commit) || 'unknown',
      branch: str(git.branch),
      time: str(git.time),
    },
  };
}
