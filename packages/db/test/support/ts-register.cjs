// Lets a child `node` process load this package's TypeScript sources (node -r ./ts-register.cjs file.ts), compiled
// by swc as jest compiles them: the data-folder lock test needs a second real process, not a second import.
const fs = require('node:fs');
const { transformSync } = require('@swc/core');

require.extensions['.ts'] = (module, filename) => {
  const { code } = transformSync(fs.readFileSync(filename, 'utf8'), {
    filename,
    jsc: { parser: { syntax: 'typescript' }, target: 'es2022' },
    module: { type: 'commonjs' },
  });
  module._compile(code, filename);
};
