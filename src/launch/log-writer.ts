/**
 * A server's stderr log: redacted, line by line, private, rotated.
 *
 * Contract: `openServerLog(file, opts)` makes the log's directory private
 * (0700, via files/private-dir.ts, its parent taken as the base) and opens
 * the file for appending (0600 whatever the umask; a symbolic link, a
 * non-regular file or another user's file planted at its path is refused —
 * the error says which). `write(chunk)` buffers text and writes every
 * complete line, each secret replaced with `***` (config/redact.ts) before
 * it touches the disk, escaped to one visible line (config/terminal-safe.ts
 * `oneLine`: control characters, ANSI/OSC, bidi, tabs as escapes; a CRLF's
 * `\r` dropped) and stored as `<ISO time> server| <text>` — the launcher's
 * own notes as `<ISO time> launcher| <text>` (log-line.ts).
 * A server cannot forge a launcher line: whatever it prints, even a whole
 * stamped `launcher|` line, stays after its own `server|` mark on one line. A line longer than
 * `MAX_LINE` is written in pieces, keeping back enough characters that a
 * secret cut by the piece boundary is still whole in the next piece. When a
 * write would take the file past `maxBytes` it is renamed to `<file>.1`
 * (replacing the old backup; a rename never follows a link) and a new file
 * is opened. `end()` writes what is buffered and closes. `onLine`, when
 * given, receives each redacted line too. Writes are synchronous: nothing is
 * lost when the launcher exits right after. Never throws after opening
 * (a failed write is dropped). Every line of a multi-line secret is a
 * secret of its own (`secretFragments`), so a PEM printed line by line is
 * hidden line by line. Free-text secret shapes are masked too (the
 * redaction's `redactShapesIn`: `Authorization: …`, `token=…`,
 * `"password": "…"`, `api_key: …`, URL userinfo, and a PEM block's body,
 * also when the block arrives over several writes). Without a `file`, nothing is written to disk: each
 * redacted line only goes to `onLine`.
 *
 * @module
 */
import { closeSync, fstatSync, renameSync, writeSync } from 'node:fs'
import path from 'node:path'
import { MIN_SECRET_LENGTH, redact } from '../config/redact.ts'
import { oneLine } from '../config/terminal-safe.ts'
import { type LogSource, logLine } from './log-line.ts'
import { maskPemLine, type PemState } from '../config/redact-pem.ts'
import { ensurePrivateDir, openPrivateAppend } from '../files/private-dir.ts'
import { LOG_MAX_BYTES } from './spec.ts'

export const MAX_LINE = 64 * 1024

export interface ServerLog {
  write(chunk: string): void
  /** One line of the launcher's own (already redacted on write). */
  note(text: string): void
  end(): void
}

export interface ServerLogOptions {
  secrets: readonly string[]
  maxBytes?: number
  onLine?: (line: string) => void
}

/** The secrets plus every line of each multi-line one, longest first. */
export function secretFragments(secrets: readonly string[]): string[] {
  const out = new Set(secrets)
  for (const s of secrets) {
    if (!/[\r\n]/.test(s)) continue
    for (const line of s.split(/\r?\n|\r/)) if (line.trim().length >= MIN_SECRET_LENGTH) out.add(line.trim())
  }
  return [...out].sort((a, b) => b.length - a.length)
}

export function openServerLog(file: string | undefined, opts: ServerLogOptions): ServerLog {
  const secrets = secretFragments(opts.secrets)
  opts = { ...opts, secrets }
  if (file !== undefined) {
    const dir = path.dirname(file)
    ensurePrivateDir(dir, { base: path.dirname(dir) })
  }
  const maxBytes = opts.maxBytes ?? LOG_MAX_BYTES
  const keep = Math.max(0, ...opts.secrets.map((s) => s.length)) - 1
  let fd: number | undefined = file === undefined ? undefined : openPrivateAppend(file)
  let size = fd === undefined ? 0 : fstatSync(fd).size
  let carry = ''

  const rotate = () => {
    if (fd === undefined || file === undefined) return
    try {
      closeSync(fd)
      renameSync(file, `${file}.1`)
    } catch {
      // rotation is best effort: a failed close or rename leaves the log as it is
    }
    fd = undefined
    try {
      fd = openPrivateAppend(file)
      size = fstatSync(fd).size
    } catch {
      // no log file to reopen: later lines are dropped (fd stays undefined), the server runs on
    }
  }

  const pem: PemState = { inside: false }
  const put = (text0: string, who: LogSource) => {
    const stamp = new Date().toISOString()
    // A PEM block printed over several writes: its body lines stay hidden until its END line.
    // Each line escaped (control characters, ANSI, bidi, tabs as visible escapes): one stored line per printed line.
    const lines = text0.split('\n').map((l) => oneLine(maskPemLine(l.replace(/\r$/, ''), pem)))
    const text = `${lines.map((l) => logLine(stamp, who, l)).join('\n')}\n`
    for (const l of lines) opts.onLine?.(l)
    const buf = Buffer.from(text, 'utf8')
    if (size > 0 && size + buf.length > maxBytes) rotate()
    if (fd === undefined) return
    try {
      let off = 0
      while (off < buf.length) off += writeSync(fd, buf, off, buf.length - off)
      size += buf.length
    } catch {
      // a full or broken log loses lines, never the server
    }
  }

  const write = (chunk: string) => {
    carry += chunk
    const last = carry.lastIndexOf('\n')
    if (last >= 0) {
      // Redact the complete lines together, so a multi-line secret printed at once is matched whole.
      const done = redact(carry.slice(0, last), opts.secrets)
      carry = carry.slice(last + 1)
      put(done, 'server')
    }
    if (carry.length > MAX_LINE) {
      const hidden = redact(carry, opts.secrets)
      const cut = Math.max(0, hidden.length - keep)
      put(hidden.slice(0, cut), 'server')
      carry = hidden.slice(cut)
    }
  }

  return {
    write,
    note(text) {
      put(redact(text, opts.secrets), 'launcher')
    },
    end() {
      if (carry.length > 0) put(redact(carry, opts.secrets), 'server')
      carry = ''
      if (fd !== undefined) {
        try {
          closeSync(fd)
        } catch {
          // already closed: nothing to release
        }
        fd = undefined
      }
    },
  }
}
