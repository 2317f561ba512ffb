// Lets a child process run the service from its TypeScript sources (`node -r ./register-ts.cjs src/main.ts`), so a
// test that starts real processes needs no build first. Compiles with the same swc the jest transform uses.
const path = require('node:path');
const swc = require(require.resolve('@swc/core', { paths: [path.resolve(__dirname, '../../../..')] }));

require.extensions['.ts'] = (module, filename) => {
  const { code } = swc.transformFileSync(filename, {
    jsc: { parser: { syntax: 'typescript' }, target: 'es2022' },
    module: { type: 'commonjs' },
    sourceMaps: 'inline',
  });
  module._compile(code, filename);
};
