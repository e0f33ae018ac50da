/**
 * CLI errors carry their exit code: 1 for a failure (validation, runtime,
 * a broken server), 2 for a usage error. The message is one line; `details`
 * follow it on stderr.
 *
 * @module
 */
export class CliError extends Error {
  readonly exitCode: 1 | 2
  readonly details: string[]
  constructor(message: string, opts: { exitCode?: 1 | 2; details?: string[] } = {}) {
    super(message)
    this.name = 'CliError'
    this.exitCode = opts.exitCode ?? 1
    this.details = opts.details ?? []
  }
}

/** A usage error (exit 2): wrong flags, malformed values, unknown scope. */
export function usage(message: string, details: string[] = []): CliError {
  return new CliError(message, { exitCode: 2, details })
}

/** A runtime failure (exit 1). */
export function failure(message: string, details: string[] = []): CliError {
  return new CliError(message, { exitCode: 1, details })
}
