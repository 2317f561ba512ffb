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
    // Jest 30 soft-deletes what a test file left on the global object once the file ends. The offline sentence
    // encoder's tensor engine keeps its backend state there (`_tfengine`); a worker that ran another encoder file
    // first once failed "Backend 'wasm' has not yet been initialized" after that warning. Off, as in Jest 29.
    testEnvironmentOptions: { globalsCleanup: 'off' },
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
