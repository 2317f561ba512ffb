// jwks-rsa 4 (external mode) requires jose 6, which is ESM-only; jest's CommonJS runtime on Node 20 cannot
// require ESM, so jose is compiled like PGlite's bundles.
module.exports = require('@care/tsconfig/jest')(__dirname, {
  transformIgnorePatterns: ['/node_modules/(?!(\\.pnpm/)?(@electric-sql[+/]|jose[@/]))'],
});
