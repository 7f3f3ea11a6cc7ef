/**
 * A command line that cannot be used: an unknown option, a bad value, a missing or extra argument.
 * The message names the option or argument and what is wrong with it; each command prints it with its
 * usage and exits with its usage status. One class for every bin of the project (writev-upload-pack,
 * writev-trace, writev-lint), so a caller tells a usage mistake from a failure the same way everywhere.
 */
export class UsageError extends Error {
  /** Always `'ERR_USAGE'`. */
  readonly code = 'ERR_USAGE';

  constructor(message: string) {
    super(message);
    this.name = 'UsageError';
  }
}
