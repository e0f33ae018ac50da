/**
 * Terminal output: quiet success, TTY-aware colour, tables, stable JSON.
 *
 * Contract: data goes to stdout, diagnostics and progress to stderr. Colour
 * is on only when the stream is a TTY and neither `--no-color` nor `NO_COLOR`
 * says otherwise (`FORCE_COLOR` forces it). JSON is printed with two-space
 * indentation and a trailing newline. Tables follow gh: on a TTY they fit
 * the terminal width (`columns`, else `COLUMNS`, else 80) by narrowing the
 * widest columns and cutting their cells with `…`; piped, every cell is kept
 * whole so scripts see everything. Columns named in `keep` (server names)
 * are never cut: the others are narrowed first, down to two characters when
 * the terminal is very narrow; when even that does not fit, the line is
 * longer than the terminal rather than a name cut.
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
import { nodeCrypto } from '../config/node-crypto.ts'
import { styleText } from 'node:util'
import { jsonTerminalSafe, oneLine, terminalSafe } from '../config/terminal-safe.ts'

type Color = 'red' | 'green' | 'yellow' | 'cyan' | 'gray' | 'bold' | 'dim'

export interface Output {
  readonly color: boolean
  readonly isTTY: boolean
  out(text?: string): void
  err(text?: string): void
  json(value: unknown): void
  paint(color: Color, text: string): string
  /** `keep`: indexes of columns never cut (names). */
  table(rows: readonly (readonly string[])[], header?: readonly string[], opts?: { keep?: readonly number[] }): void
}

export interface OutputOptions {
  color?: boolean
  stdout?: NodeJS.WritableStream & { isTTY?: boolean; columns?: number }
  stderr?: NodeJS.WritableStream & { isTTY?: boolean }
  env?: NodeJS.ProcessEnv
}

// Made on the first colour token (a run with colour off never needs it, nor `node:crypto`).
let NONCE: string | undefined
let TOKEN = /(?!)/g
function nonce(): string {
  if (NONCE === undefined) {
    NONCE = nodeCrypto().randomBytes(8).toString('hex')
    TOKEN = new RegExp(`\uE000${NONCE}(/?)([a-z]+)\uE001`, 'g')
  }
  return NONCE
}
const token = (c: Color, close: boolean) => `\uE000${nonce()}${close ? '/' : ''}${c}\uE001`

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

/** A cell cut to `width` visible characters, ending in `…` when cut (colour dropped then). */
function fit(cell: string, width: number): string {
  if (visibleLength(cell) <= width) return cell
  const plain = cell.replace(TOKEN, '')
  return width <= 1 ? plain.slice(0, width) : `${plain.slice(0, width - 1)}…`
}

/** Column widths narrowed (widest first, never below its header or 6) until the row fits `total`. */
export function fitWidths(widths: readonly number[], floors: readonly number[], total: number, gap = 2): number[] {
  const out = [...widths]
  const sum = () => out.reduce((a, b) => a + b, 0) + gap * (out.length - 1)
  while (sum() > total) {
    let widest = -1
    for (let i = 0; i < out.length; i++) if (out[i]! > floors[i]! && (widest < 0 || out[i]! > out[widest]!)) widest = i
    if (widest < 0) break
    out[widest]!--
  }
  return out
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
    table(rows, header, opts = {}) {
      const keep = new Set(opts.keep ?? [])
      const all = (header ? [header.map((h) => paint('bold', h)), ...rows] : rows).map((row) => row.map(oneLine))
      let widths: number[] = []
      for (const row of all) {
        row.forEach((cell, i) => {
          widths[i] = Math.max(widths[i] ?? 0, visibleLength(cell))
        })
      }
      if (isTTY) {
        const columns = (stdout as { columns?: number }).columns || Number(env.COLUMNS) || 80
        widths = fitWidths(
          widths,
          widths.map((w, i) => (keep.has(i) ? w : Math.min(w, Math.max(6, header?.[i]?.length ?? 0)))),
          columns,
        )
        // Very narrow: the other columns go down to two characters before a kept one is touched (never).
        if (keep.size > 0)
          widths = fitWidths(
            widths,
            widths.map((w, i) => (keep.has(i) ? w : Math.min(w, 2))),
            columns,
          )
      }
      for (const row of all) {
        const cells = isTTY ? row.map((cell, i) => fit(cell, widths[i] ?? 0)) : row
        const line = cells
          .map((cell, i) =>
            i === cells.length - 1 ? cell : cell + ' '.repeat(Math.max(0, (widths[i] ?? 0) - visibleLength(cell))),
          )
          .join('  ')
        stdout.write(colour(line.trimEnd()) + '\n')
      }
    },
  }
}
