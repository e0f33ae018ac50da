/**
 * `dsh-mcp logs <name> [-f] [-n N]`: the captured stderr of one stdio server
 * of the project of `-C/--dir` (default cwd), as a running host wrote it to
 * `$DSH_HOME/mcp-logs/` (src/launch/spec.ts `serverLogFile`).
 *
 * Contract:
 * - The server is the winning row of that name (project layers, then the
 *   user file); no such row: exit 1 with a did-you-mean. An HTTP server has
 *   no stderr: exit 1 saying so. No log yet: exit 1 naming the file looked
 *   for and when a host writes it (once the server prints to stderr).
 * - Prints the last N lines (default 50) of the backup and the live file
 *   together. Every secret value of the server as configured now (env and
 *   header values, the variables they use — config/redact.ts) is replaced
 *   with `***` once more on display, and so are free-text secret shapes
 *   (`Authorization: …`, `token=…`, `"password": "…"`, URL userinfo, a PEM
 *   block's body lines — config/redact-shapes.ts, redact-pem.ts); the host
 *   already redacted them before writing. Each line is shown as
 *   `<time> server| <text>` or `<time> launcher| <text>` (the mark the host
 *   stored: launch/log-writer.ts), the text escaped to one line once more; a
 *   line without a mark (an older log) is shown as `(unmarked) server| …` —
 *   never as the launcher's.
 * - `-f`: then keeps printing what is appended, across rotation (the live
 *   file renamed to `.1` and a new one started: the rest of the old file is
 *   read first), until interrupted.
 * - Never follows a symbolic link planted at a log path (refused with the
 *   path), never reads another user's file. Reads files only: no network, no
 *   child process, no host package.
 *
 * @module
 */
import { closeSync, constants, fstatSync, openSync, readSync, statSync } from 'node:fs'
import { expandEntry } from '../../config/expand.ts'
import { transportOf } from '../../config/entry.ts'
import { redact, secretValues } from '../../config/redact.ts'
import { maskPemLine, type PemState } from '../../config/redact-pem.ts'
import { loadProject } from '../../files/project.ts'
import { ownedByOther } from '../../files/private-dir.ts'
import { parseLogLine } from '../../launch/log-line.ts'
import { serverLogFile } from '../../launch/spec.ts'
import { oneLine } from '../../config/terminal-safe.ts'
import { canonicalRoot } from '../../trust/store.ts'
import { failure } from '../errors.ts'
import { unknownServer } from '../listing.ts'
import type { CliContext } from '../program.ts'

export interface LogsOptions {
  follow?: boolean
  lines?: string
}

const NOFOLLOW = constants.O_NOFOLLOW ?? 0
const POLL_MS = 200

/** Open a log for reading, refusing links and other users' files; undefined when absent. */
function openLog(file: string): number | undefined {
  let fd: number
  try {
    fd = openSync(file, constants.O_RDONLY | NOFOLLOW)
  } catch (err) {
    const code = (err as NodeJS.ErrnoException).code
    if (code === 'ENOENT') return undefined
    if (code === 'ELOOP' || code === 'EMLINK')
      throw failure(`${file} is a symbolic link; not read (remove it: the host creates its logs itself)`)
    throw failure(`${file} cannot be read: ${code ?? String(err)}`)
  }
  const st = fstatSync(fd)
  if (!st.isFile() || ownedByOther(st)) {
    closeSync(fd)
    throw failure(`${file} is ${st.isFile() ? "another user's file" : 'not a regular file'}; not read`)
  }
  return fd
}

function readFrom(fd: number, offset: number): { text: string; end: number } {
  const chunks: Buffer[] = []
  const buf = Buffer.alloc(64 * 1024)
  let pos = offset
  for (;;) {
    const n = readSync(fd, buf, 0, buf.length, pos)
    if (n <= 0) break
    chunks.push(Buffer.from(buf.subarray(0, n)))
    pos += n
  }
  return { text: Buffer.concat(chunks).toString('utf8'), end: pos }
}

export async function run(cli: CliContext, name: string, opts: LogsOptions = {}): Promise<number> {
  const lines = opts.lines === undefined ? 50 : Number(opts.lines)
  if (!Number.isInteger(lines) || lines < 0) throw failure(`-n wants a whole number of lines, not "${opts.lines}"`)
  const project = loadProject(cli.dir, cli.loc)
  const root = canonicalRoot(project.root.root)
  const row = project.rows.find((r) => r.name === name && r.state !== 'shadowed')
  if (!row) throw unknownServer(name, [...new Set(project.rows.map((r) => r.name))], root)
  if (row.entry && transportOf(row.entry) === 'streamable-http')
    throw failure(`"${name}" is an HTTP server: it has no stderr, so there is no log`)
  const expanded = row.entry ? expandEntry(row.entry, cli.env) : undefined
  const secrets = row.entry
    ? secretValues(row.entry, expanded && 'entry' in expanded ? expanded.entry : undefined, cli.env)
    : []
  // Line by line: a PEM block's body stays hidden between its BEGIN and END lines.
  const pem: PemState = { inside: false }
  // Each stored line is the server's or the launcher's (launch/log-writer.ts); an unmarked one is the server's.
  const show = (line: string) => {
    const l = parseLogLine(line)
    return `${l.stamp ?? '(unmarked)'} ${l.who}| ${oneLine(maskPemLine(redact(l.text, secrets), pem))}`
  }
  const file = serverLogFile(cli.loc.dshHome, row.scope === 'user' ? cli.loc.dshHome : root, name)

  const backup = openLog(`${file}.1`)
  let fd = openLog(file)
  if (fd === undefined && backup === undefined) {
    throw failure(`no log for "${name}" yet: ${file} does not exist`, [
      `a host writes it once this stdio server prints to stderr (run dsh in ${root} with DSH_HOME=${cli.loc.dshHome})`,
    ])
  }
  let text = ''
  if (backup !== undefined) {
    text += readFrom(backup, 0).text
    closeSync(backup)
  }
  let offset = 0
  if (fd !== undefined) {
    const read = readFrom(fd, 0)
    text += read.text
    offset = read.end
  }
  const all = text.split('\n')
  if (all[all.length - 1] === '') all.pop()
  for (const line of lines === 0 ? [] : all.slice(-lines)) cli.out.out(show(line))
  if (!opts.follow) {
    if (fd !== undefined) closeSync(fd)
    return 0
  }

  // Follow: print appended bytes; when the path names a new file (rotation), finish the old one first.
  let partial = ''
  const emit = (chunk: string) => {
    partial += chunk
    const cut = partial.lastIndexOf('\n')
    if (cut < 0) return
    for (const line of partial.slice(0, cut).split('\n')) cli.out.out(show(line))
    partial = partial.slice(cut + 1)
  }
  await new Promise<void>((resolve) => {
    const stop = () => {
      cli.signals.off('SIGINT', stop)
      cli.signals.off('SIGTERM', stop)
      clearInterval(timer)
      if (fd !== undefined) closeSync(fd)
      resolve()
    }
    cli.signals.on('SIGINT', stop)
    cli.signals.on('SIGTERM', stop)
    const timer = setInterval(() => {
      try {
        if (fd !== undefined) {
          const read = readFrom(fd, offset)
          offset = read.end
          if (read.text) emit(read.text)
        }
        let current: number | undefined
        try {
          current = statSync(file).ino
        } catch {
          current = undefined
        }
        if (current !== undefined && (fd === undefined || fstatSync(fd).ino !== current)) {
          if (fd !== undefined) closeSync(fd)
          fd = openLog(file)
          offset = 0
        }
      } catch (err) {
        cli.out.err(String((err as Error).message))
        stop()
      }
    }, POLL_MS)
  })
  return 0
}
