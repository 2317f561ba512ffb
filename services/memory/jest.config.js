// PGlite takes seconds to start on a busy machine (the file-backed one in the restart test even more),
// so hooks and tests get a generous bound; nothing here is timed.
module.exports = { ...require('@care/tsconfig/jest')(__dirname), testTimeout: 180000 };
