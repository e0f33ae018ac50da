/**
 * Live progress for long-running checks on a terminal: one status line on
 * stderr ("checking 5/8 · waiting for github, docs · 2.1 s"), redrawn in
 * place and erased before anything else is printed, so the report lines
 * around it stay clean.
 *
 * Contract: only draws when the stream is a TTY (`enabled`); otherwise every
 * method but `print` is a no-op and `print` simply runs its writer. The refresh timer
 * never keeps the process alive. `stop()` erases the line and is idempotent.
 *
 * Names are drawn terminal-safe (`oneLine`: controls as visible escapes).
 *
 * @module
 */
import { oneLine } from '../config/terminal-safe.ts'

export interface ProgressStream {
  write(text: string): unknown
  isTTY?: boolean
  columns?: number
}

export interface Progress {
  readonly enabled: boolean
  /** Begin with these pending names. */
  start(names: readonly string[]): void
  /** One name finished. */
  done(name: string): void
  /** Run `write` (which prints whole lines elsewhere, e.g. stdout) with the status line out of the way. */
  print(write: () => void): void
  stop(): void
}

const ERASE = '\r\u001b[2K'
const FRAMES = ['⠋', '⠙', '⠹', '⠸', '⠼', '⠴', '⠦', '⠧', '⠇', '⠏']

export function createProgress(
  stream: ProgressStream,
  opts: { enabled?: boolean; label?: string; intervalMs?: number } = {},
): Progress {
  const enabled = opts.enabled ?? Boolean(stream.isTTY)
  const label = opts.label ?? 'checking'
  const pending: string[] = []
  let total = 0
  let started = 0
  let frame = 0
  let drawn = false
  let timer: NodeJS.Timeout | undefined

  const line = (): string => {
    const secs = ((performance.now() - started) / 1000).toFixed(1)
    const width = Math.max(40, (stream.columns || 80) - 1)
    // Names come from config files (a checkout's): escaped like every other CLI edge, or an OSC could write the clipboard.
    const text = `${FRAMES[frame % FRAMES.length]} ${label} ${total - pending.length}/${total} · waiting for ${pending.map((n) => oneLine(n)).join(', ')} · ${secs} s`
    return text.length > width ? `${text.slice(0, width - 1)}…` : text
  }
  const erase = () => {
    if (drawn) stream.write(ERASE)
    drawn = false
  }
  const draw = () => {
    if (!enabled || timer === undefined || pending.length === 0) return
    stream.write((drawn ? ERASE : '') + line())
    drawn = true
  }

  return {
    enabled,
    start(names) {
      pending.splice(0, pending.length, ...names)
      total = names.length
      if (!enabled || total === 0) return
      started = performance.now()
      timer = setInterval(() => {
        frame++
        draw()
      }, opts.intervalMs ?? 100)
      timer.unref()
      draw()
    },
    done(name) {
      const i = pending.indexOf(name)
      if (i >= 0) pending.splice(i, 1)
      if (pending.length === 0) erase()
      else draw()
    },
    print(write) {
      erase()
      write()
      draw()
    },
    stop() {
      if (timer) clearInterval(timer)
      timer = undefined
      erase()
    },
  }
}
