// Shared jest settings: TypeScript through @swc/jest to CommonJS, node environment,
// results written as JSON so the root test script can print one total line.
/** @param {string} dir the package directory (pass __dirname) */
module.exports = function jestConfig(dir, overrides = {}) {
  const swc = [
    require.resolve('@swc/jest'),
    {
      jsc: { parser: { syntax: 'typescript', decorators: false }, target: 'es2022' },
      module: { type: 'commonjs' },
      sourceMaps: 'inline',
    },
  ];
  return {
    rootDir: dir,
    testEnvironment: 'node',
    testMatch: ['<rootDir>/src/**/*.test.ts', '<rootDir>/test/**/*.test.ts'],
    transform: {
      '^.+\\.(t|j)sx?$': swc,
      // PGlite's CommonJS bundles load node built-ins with dynamic import(), which jest's CommonJS runtime
      // refuses without --experimental-vm-modules; compiling them turns those into require() calls.
      '@electric-sql/.+\\.cjs$': swc,
    },
    transformIgnorePatterns: ['/node_modules/(?!(\\.pnpm/)?@electric-sql[+/])'],
    moduleFileExtensions: ['ts', 'js', 'json'],
    // Generous: PGlite start-up and bcrypt are CPU-bound, and CI shares two cores between two test processes.
    testTimeout: 90000,
    ...overrides,
  };
};
