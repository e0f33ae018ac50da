/**
 * Reading a private file (the trust store, a status file) exactly as it was
 * checked: the open re-checks what a path check cannot hold.
 *
 * Contract: `readPinned(file, { max, checked })` opens `file` with
 * O_NOFOLLOW|O_NONBLOCK (a symbolic link — planted or swapped in after the
 * caller's check — is refused, a FIFO never waited on), then judges the
 * opened file itself (fstat): not a regular file, more than one hard link
 * (whoever can write another of its names — a file in a repository — would
 * write it), or another file than the one the caller checked (`checked`:
 * its dev and ino, from the caller's lstat) is a `problem`; larger than
 * `max` too. A missing file is `absent`. Reads at most `max + 1` bytes.
 * Never throws. `sameFile(a, b)` compares two stats' identities.
 *
 * @module
 */
import { Buffer } from 'node:buffer'
import { closeSync, constants, fstatSync, openSync, readSync, type Stats } from 'node:fs'

export type PinnedRead = { text: string } | { absent: true } | { problem: string }

export type FileIdentity = Pick<Stats, 'dev' | 'ino'>

export function sameFile(a: FileIdentity, b: FileIdentity): boolean {
  return a.dev === b.dev && a.ino === b.ino
}

export function readPinned(file: string, opts: { max: number; checked?: FileIdentity }): PinnedRead {
  let fd: number
  try {
    fd = openSync(file, constants.O_RDONLY | (constants.O_NOFOLLOW ?? 0) | (constants.O_NONBLOCK ?? 0))
  } catch (err) {
    const code = (err as NodeJS.ErrnoException).code
    if (code === 'ENOENT' || code === 'ENOTDIR') return { absent: true }
    if (code === 'ELOOP' || code === 'EMLINK') return { problem: `${file} is a symbolic link` }
    return { problem: `${file} cannot be read (${code ?? 'error'})` }
  }
  try {
    const st = fstatSync(fd)
    if (!st.isFile()) return { problem: `${file} is not a regular file` }
    if (st.nlink > 1) return { problem: `${file} has ${st.nlink} hard links` }
    if (opts.checked && !sameFile(st, opts.checked))
      return { problem: `${file} was replaced between its check and its read` }
    if (st.size > opts.max) return { problem: `${file} is too large` }
    const buf = Buffer.alloc(opts.max + 1)
    let n = 0
    for (;;) {
      const r = readSync(fd, buf, n, buf.length - n, null)
      if (r === 0) break
      n += r
      if (n > opts.max) return { problem: `${file} is too large` }
    }
    return { text: buf.subarray(0, n).toString('utf8') }
  } catch (err) {
    return { problem: `${file} cannot be read (${(err as NodeJS.ErrnoException).code ?? 'error'})` }
  } finally {
    closeSync(fd)
  }
}
