// A separate OS process holding an SQLite file's write lock: opens the file (creating it if
// missing) with a plain connection, runs BEGIN IMMEDIATE, tells the parent, and rolls back and
// exits when the parent says so.
import Database from 'better-sqlite3';

const path = process.argv[2] ?? '';
const db = new Database(path);
db.exec('BEGIN IMMEDIATE');
process.send?.('held');
process.once('message', () => {
  db.exec('ROLLBACK');
  db.close();
  process.exit(0);
});
