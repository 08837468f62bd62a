/**
 * A users file the console cannot admit reviewers from (missing, unreadable, not JSON, an entry
 * without a name or a token, a duplicate): the message names the file and the entry, never a token.
 */
export class ReviewersFileError extends Error {
  constructor(message: string) {
    super(message);
    this.name = 'ReviewersFileError';
  }
}
