// Prints one closing line, "N passed, N failed, N skipped", that any CI can read, after
// everything Jest itself prints. When jest.config.js left whole suites out (no PostgreSQL,
// Redis or Chromium), the same line says which and why instead of a skipped count that would
// not include them: "N passed, N failed; not run: the browser suites (no Chromium at ...)".
class SummaryReporter {
  constructor(_globalConfig, options = {}) {
    this.notRun = options.notRun ?? [];
  }

  onRunComplete(_contexts, results) {
    const { numPassedTests, numFailedTests, numPendingTests, numTodoTests } = results;
    const failed = numFailedTests + results.numRuntimeErrorTestSuites;
    const skipped = numPendingTests + numTodoTests;
    let line = `${numPassedTests} passed, ${failed} failed`;
    if (!this.notRun.length) line += `, ${skipped} skipped`;
    else {
      if (skipped) line += `, ${skipped} skipped`;
      line += `; not run: ${this.notRun.join(', ')}; see "Tests" in the README`;
    }
    process.once('exit', () => process.stderr.write(`\n${line}\n`));
  }
}

module.exports = SummaryReporter;
