// Prints "N passed, N failed, N skipped" from vitest's JSON report; exits 1 when tests failed,
// when none ran, or when the report is missing.
import { existsSync, readFileSync } from 'node:fs';

const file = process.argv[2] ?? 'vitest-report.json';
if (!existsSync(file)) {
  console.log('0 passed, 1 failed');
  console.error(`no vitest report at ${file}: the test run did not finish`);
  process.exit(1);
}
const report = JSON.parse(readFileSync(file, 'utf8'));
const passed = report.numPassedTests ?? 0;
// A file that failed without a failing test (an import error, a crashed hook) counts once; a
// failing test is not counted again through the suites around it.
const brokenFiles = (report.testResults ?? []).filter(
  (file) =>
    file.status === 'failed' &&
    !(file.assertionResults ?? []).some((test) => test.status === 'failed'),
).length;
const failed = (report.numFailedTests ?? 0) + brokenFiles;
const skipped = (report.numPendingTests ?? 0) + (report.numTodoTests ?? 0);
console.log(`${passed} passed, ${failed} failed, ${skipped} skipped`);
process.exit(failed > 0 || passed === 0 ? 1 : 0);
