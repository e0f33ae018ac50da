/**
 * Reading config files from disk into parsed layers.
 *
 * Contract: never throws. A missing file is `absent` (no diagnostics); a file
 * that cannot be read (directory, permission, over the size cap) is a parsed
 * file with `ok: false` and one diagnostic naming the file, so callers treat
 * it exactly like a file that does not parse. Reads at most the size cap + 1
 * bytes, so a huge file costs no memory. With a `guard`, a present file that
 * `files/guard.ts` refuses (a link out of the project, another user's file)
 * is a parsed file with `refused` set, `ok: false` and one `refused`
 * diagnostic, and is never read. The check runs after the open, and the
 * path must still name the opened file (dev+ino) after it: a file swapped
 * for a link (or another file) between the open and the check is a
 * `read-failed` file, never read. Root discovery never looks in a directory
 * owned by another user.
 *
 * @module
 */
import { Buffer, isUtf8 } from 'node:buffer'
import { closeSync, constants, existsSync, fstatSync, lstatSync, openSync, readSync, statSync } from 'node:fs'
import type { CheckOptions } from '../config/entry.ts'
import { inheritedDirs, readChain } from '../config/inherit.ts'
import { type LayerFile, type LayerInput, layerDirOf, userLayerFile } from '../config/layers.ts'
import type { Locations } from './locations.ts'
import { MAX_CONFIG_BYTES, type ParsedFile, parseConfigText } from '../config/parse.ts'
import { findProjectRoot, type ProjectRoot } from '../config/root.ts'
import { positionAt } from '../config/yaml-doc.ts'
import { fileRefusal, foreignDir, type GuardContext } from './guard.ts'
import { type FileIdentity, sameFile } from './pinned-read.ts'

export { defaultLocations, type Locations } from './locations.ts'

export type ReadResult = { absent: true } | { absent: false; parsed: ParsedFile; text?: string }

/** What reading a file at most `max` bytes gave: its UTF-8 text, nothing there, or why not (one line, no content quoted). */
export type BoundedRead =
  | { text: string }
  | { absent: true }
  | {
      failure: {
        code: 'read-failed' | 'not-a-file' | 'too-large' | 'not-utf8'
        message: string
        line?: number
        col?: number
      }
    }

/**
 * Read a regular file of at most `max` bytes without ever waiting on it or
 * holding more than `max + 1` bytes: a FIFO, a device (`/dev/zero`), a
 * directory or a larger file is refused, never read. `refuse` runs after the
 * open and before any byte is read; what it returns is the answer.
 */
export function readBoundedText<R>(
  file: string,
  max: number,
  refuse?: () => R | undefined,
): BoundedRead | { refused: R } {
  const failed = (code: 'read-failed' | 'not-a-file' | 'too-large', message: string): BoundedRead => ({
    failure: { code, message },
  })
  let fd: number
  try {
    // O_NONBLOCK: opening a FIFO must not wait for a writer (fstat then refuses it); no effect on regular files.
    fd = openSync(file, constants.O_RDONLY | (constants.O_NONBLOCK ?? 0))
  } catch (err) {
    const code = (err as NodeJS.ErrnoException).code
    if (code === 'ENOENT' && isSymlink(file))
      return failed('read-failed', 'cannot be read: it is a symbolic link to a file that does not exist')
    if (code === 'ENOENT' || code === 'ENOTDIR') return { absent: true }
    if (code === 'EISDIR') return failed('not-a-file', 'is a directory, not a config file')
    if (code === 'EACCES' || code === 'EPERM') return failed('read-failed', 'cannot be read: permission denied')
    if (code === 'ELOOP') return failed('read-failed', 'cannot be read: too many levels of symbolic links')
    return failed('read-failed', `cannot be read: ${code ?? (err as Error).message}`)
  }
  try {
    const opened = fstatSync(fd)
    const refused = refuse?.()
    if (refused !== undefined) return { refused }
    // The check judged the path: it must still name the very file opened (a link or file swapped in between is refused).
    if (!sameAsPath(file, opened))
      return failed(
        'read-failed',
        'cannot be read: it was replaced while being read (a link or another file swapped in); nothing from it is used',
      )
    const st = fstatSync(fd)
    if (st.isDirectory()) return failed('not-a-file', 'is a directory, not a config file')
    if (!st.isFile()) return failed('not-a-file', 'is not a regular file')
    if (st.size > max)
      return failed(
        'too-large',
        `is ${(st.size / 1024 / 1024).toFixed(1)} MiB; config files are limited to ${max / 1024} KiB`,
      )
    const buf = Buffer.alloc(max + 1)
    let n = 0
    for (;;) {
      const r = readSync(fd, buf, n, buf.length - n, null)
      if (r === 0) break
      n += r
      if (n > max) return failed('too-large', `is larger than ${max / 1024} KiB; config files are limited to that`)
    }
    const bytes = buf.subarray(0, n)
    const text = bytes.toString('utf8')
    if (!isUtf8(bytes))
      return {
        failure: {
          code: 'not-utf8',
          message: 'is not UTF-8 text (a binary file, or another encoding)',
          ...positionAt(text, Math.max(0, text.indexOf('\uFFFD'))),
        },
      }
    return { text }
  } catch (err) {
    const code = (err as NodeJS.ErrnoException).code
    if (code === 'EISDIR') return failed('not-a-file', 'is a directory, not a config file')
    return failed('read-failed', `cannot be read: ${code ?? (err as Error).message}`)
  } finally {
    closeSync(fd)
  }
}

export function readConfigFile(
  layer: Pick<LayerFile, 'file' | 'format'>,
  opts: CheckOptions = {},
  guard?: GuardContext,
): ReadResult {
  const { file, format } = layer
  const read = readBoundedText(file, MAX_CONFIG_BYTES, () => (guard ? fileRefusal(layer, guard) : undefined))
  if ('absent' in read) return { absent: true }
  if ('refused' in read) {
    const d = {
      severity: 'error' as const,
      code: 'refused' as const,
      message: read.refused.message,
      file,
      line: 0,
      col: 0,
      path: '',
    }
    return { absent: false, parsed: { file, format, ok: false, entries: [], diagnostics: [d], refused: read.refused } }
  }
  if ('failure' in read) {
    const { code, message, line = 0, col = 0 } = read.failure
    return {
      absent: false,
      parsed: {
        file,
        format,
        ok: false,
        entries: [],
        diagnostics: [
          { severity: 'error', code: code === 'not-utf8' ? 'syntax' : code, message, file, line, col, path: '' },
        ],
      },
    }
  }
  return { absent: false, parsed: parseConfigText(read.text, { ...opts, file, format }), text: read.text }
}

/** Whether `file` (links followed, as it was opened) still names the file behind `opened`. */
function sameAsPath(file: string, opened: FileIdentity): boolean {
  try {
    return sameFile(statSync(file), opened)
  } catch {
    return false
  }
}

function isSymlink(file: string): boolean {
  try {
    return lstatSync(file).isSymbolicLink()
  } catch {
    return false
  }
}

export function projectRootOf(dir: string, loc: Locations): ProjectRoot {
  return findProjectRoot(dir, {
    exists: existsSync,
    home: loc.home,
    notMarkers: [userLayerFile(loc.dshHome).file],
    foreign: foreignDir,
  })
}

export interface ReadLayersOptions extends CheckOptions {
  legacyMcpJson?: boolean
  userLayer?: boolean
}

/** The project directory and the directories above it it inherits from (config/inherit.ts), nearest first. */
export function projectChainOf(root: string, loc: Pick<Locations, 'home'>): string[] {
  return [root, ...inheritedDirs(root, { exists: existsSync, home: loc.home, foreign: foreignDir })]
}

/** Read every present layer file of a project (its own, then its parents' up to the repository root) and the user file. */
export function readLayers(root: string | undefined, loc: Locations, opts: ReadLayersOptions = {}): LayerInput[] {
  const readOne = (layer: LayerFile): LayerInput | undefined => {
    const r = readConfigFile(
      layer,
      { ...opts, allowPartial: layer.scope === 'local', userFile: layer.scope === 'user' },
      guardFor(layer, loc),
    )
    return r.absent ? undefined : { layer, parsed: r.parsed }
  }
  const project = root
    ? readChain(projectChainOf(root, loc), { legacyMcpJson: opts.legacyMcpJson ?? true }, readOne)
    : []
  const user = opts.userLayer === false ? undefined : readOne(userLayerFile(loc.dshHome))
  return user ? [...project, user] : project
}

/** The guard of a layer file: a project file is judged against its root (`.mcp.json`'s directory, `.dsh/`'s parent), the user file alone. */
export function guardFor(
  layer: Pick<LayerFile, 'scope' | 'file'>,
  loc: Pick<Locations, 'dshHome'> & Partial<Pick<Locations, 'home' | 'env'>>,
): GuardContext {
  const ctx: GuardContext = {
    dshHome: loc.dshHome,
    ...(loc.home ? { home: loc.home } : {}),
    ...(loc.env ? { env: loc.env } : {}),
  }
  if (layer.scope === 'user') return ctx
  return { ...ctx, root: layerDirOf(layer) }
}
