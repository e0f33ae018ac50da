/**
 * Terminal output: quiet success, TTY-aware colour, tables, stable JSON.
 *
 * Contract: data goes to stdout, diagnostics and progress to stderr. Colour
 * is on only when the stream is a TTY and neither `--no-color` nor `NO_COLOR`
 * says otherwise (`FORCE_COLOR` forces it). JSON is printed with two-space
 * indentation and a trailing newline.
 *
 * Every string written passes `terminalSafe` (`config/terminal-safe.ts`):
 * control characters from config files (ANSI sequences, `\r`, bidi
 * overrides) print as visible escapes, JSON gets them as `\uXXXX`. Our own
 * colour is not text: `paint` wraps its text in tokens holding a per-process
 * random nonce (unguessable by a file written beforehand), turned into SGR
 * codes only after escaping, so a config string cannot forge colour or
 * conceal text.
 *
 * @module
 */
import { randomBytes } from 'node:crypto'
import { styleText } from 'node:util'
import { jsonTerminalSafe, terminalSafe } from '../config/terminal-safe.ts'

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

const NONCE = randomBytes(8).toString('hex')
const TOKEN = new RegExp(`\uE000${NONCE}(/?)([a-z]+)\uE001`, 'g')
const token = (c: Color, close: boolean) => `\uE000${NONCE}${close ? '/' : ''}${c}\uE001`

function sgr(c: string, close: boolean): string {
  const [open, end] = styleText(c as Color, '\u0000', { validateStream: false }).split('\u0000')
  return (close ? end : open) ?? ''
}

/** Our paint tokens turned into colour. */
function colour(escaped: string): string {
  return escaped.replace(TOKEN, (_, close: string, c: string) => sgr(c, close === '/'))
}

/** Escape what a string carries, then colour it. */
function safe(text: string): string {
  return colour(terminalSafe(text))
}

/** Visible width (paint tokens removed). */
function visibleLength(text: string): number {
  return text.replace(TOKEN, '').length
}

export function createOutput(opts: OutputOptions = {}): Output {
  const stdout = opts.stdout ?? process.stdout
  const stderr = opts.stderr ?? process.stderr
  const env = opts.env ?? process.env
  const isTTY = Boolean((stdout as { isTTY?: boolean }).isTTY)
  const forced = env.FORCE_COLOR !== undefined && env.FORCE_COLOR !== '0'
  const color = opts.color === false ? false : forced || (isTTY && env.NO_COLOR === undefined && env.TERM !== 'dumb')
  const paint = (c: Color, text: string) => (color ? `${token(c, false)}${text}${token(c, true)}` : text)
  return {
    color,
    isTTY,
    out: (text = '') => void stdout.write(safe(text) + '\n'),
    err: (text = '') => void stderr.write(safe(text) + '\n'),
    json: (value) => void stdout.write(jsonTerminalSafe(JSON.stringify(value, null, 2)) + '\n'),
    paint,
    table(rows, header) {
      const all = (header ? [header.map((h) => paint('bold', h)), ...rows] : rows).map((row) => row.map(terminalSafe))
      const widths: number[] = []
      for (const row of all) {
        row.forEach((cell, i) => {
          widths[i] = Math.max(widths[i] ?? 0, visibleLength(cell))
        })
      }
      for (const row of all) {
        const line = row.map((cell, i) => (i === row.length - 1 ? cell : cell + ' '.repeat((widths[i] ?? 0) - visibleLength(cell)))).join('  ')
        stdout.write(colour(line.trimEnd()) + '\n')
      }
    },
  }
}
