module.exports = require('@care/tsconfig/jest')(__dirname, { testTimeout: 120000 });
