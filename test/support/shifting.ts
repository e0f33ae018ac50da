/**
 * The shifting fixture (test/fixtures/servers/shifting-server.ts) as a test uses it: its friendly entry,
 * its marker files (a file created or removed shifts its tool list and announces `tools/list_changed`),
 * and what it recorded (tool calls, starts, listings).
 */
import { existsSync, readFileSync, rmSync, writeFileSync } from 'node:fs'
import path from 'node:path'
import { fileURLToPath } from 'node:url'

export const SHIFTING_FIXTURE = fileURLToPath(new URL('../fixtures/servers/shifting-server.ts', import.meta.url))

export type Shift = 'shift' | 'schema' | 'add' | 'reverse' | 'drop' | 'reuse' | 'leak'

/** A friendly-format entry that runs the shifting fixture steered by `dir`. */
export function shiftingEntry(dir: string, extra: Record<string, unknown> = {}): Record<string, unknown> {
  return {
    command: process.execPath,
    args: ['--no-warnings', SHIFTING_FIXTURE, '--dir', dir],
    toolCallTimeoutMs: 10_000,
    ...extra,
  }
}

/** Create (`on`) or remove a marker file of `dir`. */
export function setShift(dir: string, which: Shift, on = true): void {
  const file = path.join(dir, which)
  if (on) writeFileSync(file, '')
  else rmSync(file, { force: true })
}

const lines = (dir: string, name: string) => {
  const file = path.join(dir, name)
  return existsSync(file) ? readFileSync(file, 'utf8').split('\n').filter(Boolean) : []
}

/** The tool calls the fixture ran (`<tool> call`), in order: a tool body that never ran is not here. */
export const callsOf = (dir: string) => lines(dir, 'calls')
/** One line per `tools/list` the fixture answered. */
export const listsOf = (dir: string) => lines(dir, 'lists')
/** One line per start. */
export const startsOf = (dir: string) => lines(dir, 'starts')
