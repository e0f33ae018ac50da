/**
 * One stored line of a server log: who wrote it, kept apart for good.
 *
 * Contract: `logLine(stamp, who, text)` is `<ISO time> <server|launcher>| <text>`,
 * `text` already escaped to one line by the writer (log-writer.ts).
 * `parseLogLine` reads one back; a line in any other shape (a log written
 * before lines were marked, or damaged) is the server's, whole — what cannot
 * be proven the launcher's never reads as the launcher's. Pure; the CLI's
 * `logs` reads it without loading the writer.
 *
 * @module
 */

/** Who wrote a stored line: the server (its stderr) or the launcher (its own notes). */
export type LogSource = 'server' | 'launcher'

/** The stored form of one line: `<ISO time> <source>| <text>` — `text` already escaped to one line. */
export function logLine(stamp: string, who: LogSource, text: string): string {
  return `${stamp} ${who}| ${text}`
}

const STORED = /^(\d{4}-\d\d-\d\dT\d\d:\d\d:\d\d(?:\.\d+)?Z) (server|launcher)\| (.*)$/

/**
 * A stored line read back: its time, its source and its text. A line in any other shape (a log
 * written before lines were marked, or damaged) is the server's, whole: what cannot be proven
 * the launcher's never reads as the launcher's.
 */
export function parseLogLine(line: string): { stamp: string | null; who: LogSource; text: string } {
  const m = STORED.exec(line)
  if (m) return { stamp: m[1]!, who: m[2] as LogSource, text: m[3]! }
  return { stamp: null, who: 'server', text: line }
}
