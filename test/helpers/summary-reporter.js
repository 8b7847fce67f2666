// Prints one closing line, "N passed, N failed, N skipped", that any CI can read, after
// everything Jest itself prints.
class SummaryReporter {
  onRunComplete(_contexts, results) {
    const { numPassedTests, numFailedTests, numPendingTests, numTodoTests } = results;
    const failed = numFailedTests + results.numRuntimeErrorTestSuites;
    const line = `${numPassedTests} passed, ${failed} failed, ${numPendingTests + numTodoTests} skipped`;
    process.once('exit', () => process.stderr.write(`\n${line}\n`));
  }
}

module.exports = SummaryReporter;
