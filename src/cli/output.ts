/**
 * Terminal output: quiet success, TTY-aware colour, tables, stable JSON.
 *
 * Contract: data goes to stdout, diagnostics and progress to stderr. Colour
 * is on only when the stream is a TTY and neither `--no-color` nor `NO_COLOR`
 * says otherwise (`FORCE_COLOR` forces it). JSON is printed with two-space
 * indentation and a trailing newline.
 *
 * @module
 */
import { styleText } from 'node:util'

type Color = 'red' | 'green' | 'yellow' | 'cyan' | 'gray' | 'bold' | 'dim'

export interface Output {
  readonly color: boolean
  readonly isTTY: boolean
  out(text?: string): void
  err(text?: string): void
  json(value: unknown): void
  paint(color: Color, text: string): string
  table(rows: readonly (readonly string[])[], header?: readonly string[]): void
}

export interface OutputOptions {
  color?: boolean
  stdout?: NodeJS.WritableStream & { isTTY?: boolean }
  stderr?: NodeJS.WritableStream & { isTTY?: boolean }
  env?: NodeJS.ProcessEnv
}

/** Visible width (ANSI escapes removed). */
function visibleLength(text: string): number {
  return text.replace(/\u001b\[[0-9;]*m/g, '').length
}

export function createOutput(opts: OutputOptions = {}): Output {
  const stdout = opts.stdout ?? process.stdout
  const stderr = opts.stderr ?? process.stderr
  const env = opts.env ?? process.env
  const isTTY = Boolean((stdout as { isTTY?: boolean }).isTTY)
  const forced = env.FORCE_COLOR !== undefined && env.FORCE_COLOR !== '0'
  const color = opts.color === false ? false : forced || (isTTY && env.NO_COLOR === undefined && env.TERM !== 'dumb')
  const paint = (c: Color, text: string) => (color ? styleText(c, text, { validateStream: false }) : text)
  return {
    color,
    isTTY,
    out: (text = '') => void stdout.write(text + '\n'),
    err: (text = '') => void stderr.write(text + '\n'),
    json: (value) => void stdout.write(JSON.stringify(value, null, 2) + '\n'),
    paint,
    table(rows, header) {
      const all = header ? [header.map((h) => paint('bold', h)), ...rows] : rows
      const widths: number[] = []
      for (const row of all) {
        row.forEach((cell, i) => {
          widths[i] = Math.max(widths[i] ?? 0, visibleLength(cell))
        })
      }
      for (const row of all) {
        const line = row.map((cell, i) => (i === row.length - 1 ? cell : cell + ' '.repeat((widths[i] ?? 0) - visibleLength(cell)))).join('  ')
        stdout.write(line.trimEnd() + '\n')
      }
    },
  }
}
