module.exports = require('@care/tsconfig/jest')(__dirname);
