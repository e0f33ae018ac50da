/**
 * The per-user secret that keys the tool-metadata cache
 * (config/fingerprint.ts `cacheFingerprint`): `$DSH_HOME/mcp-cache/secret`.
 *
 * Contract: `readCacheSecret(dshHome)` returns the 32 secret bytes, or
 * undefined when there is no usable file: missing, a symbolic link (opened
 * with O_NOFOLLOW), not a regular file, another user's, readable or writable
 * by anyone else (mode not 0600), hard-linked (link count > 1), or not 64 hex
 * digits. It never creates anything (the CLI reads it: no record is offered
 * without it). `ensureCacheSecret(dshHome)` returns the file's secret,
 * creating it when absent: 32 random bytes written 0600 by the private
 * writer (files/private-dir.ts: 0700 directory, no link followed) under a
 * random temp name, then hard-linked into place — a link never replaces an
 * existing file, so two hosts starting at once agree on the one that landed
 * first. An unusable file (see above) is replaced (atomic rename, never
 * written through) by a fresh secret: its records become unreachable, never wrong. Throws `PrivateDirError` when the
 * directory itself cannot be used; the caller then keeps no cache.
 *
 * @module
 */
import { Buffer } from 'node:buffer'
import { randomBytes } from 'node:crypto'
import { closeSync, constants, fstatSync, linkSync, openSync, readSync, unlinkSync } from 'node:fs'
import path from 'node:path'
import { ensureHomeDir, ownedByOther, PRIVATE_DIRS, writePrivateFile } from '../files/private-dir.ts'

const SECRET_BYTES = 32
const NOFOLLOW = constants.O_NOFOLLOW ?? 0

export function cacheSecretPath(dshHome: string): string {
  return path.join(dshHome, PRIVATE_DIRS.cache, 'secret')
}

/** The secret, or undefined when the file is missing or not to be trusted (see the module contract). */
export function readCacheSecret(dshHome: string): Uint8Array | undefined {
  let fd: number | undefined
  try {
    fd = openSync(cacheSecretPath(dshHome), constants.O_RDONLY | NOFOLLOW)
    const st = fstatSync(fd)
    if (!st.isFile() || ownedByOther(st) || st.nlink !== 1) return undefined
    if (process.platform !== 'win32' && (st.mode & 0o077) !== 0) return undefined
    if (st.size !== SECRET_BYTES * 2 + 1 && st.size !== SECRET_BYTES * 2) return undefined
    const buf = Buffer.alloc(st.size)
    const n = readSync(fd, buf, 0, buf.length, 0)
    const text = buf.subarray(0, n).toString('utf8').trim()
    if (!/^[0-9a-f]{64}$/.test(text)) return undefined
    return new Uint8Array(Buffer.from(text, 'hex'))
  } catch {
    return undefined
  } finally {
    if (fd !== undefined) closeSync(fd)
  }
}

/** The secret, created when absent or unusable (see the module contract). */
export function ensureCacheSecret(dshHome: string): Uint8Array {
  const file = cacheSecretPath(dshHome)
  const fresh = () => `${randomBytes(SECRET_BYTES).toString('hex')}\n`
  for (let attempt = 0; attempt < 3; attempt++) {
    const found = readCacheSecret(dshHome)
    if (found) return found
    ensureHomeDir(dshHome, 'cache')
    const staged = `${file}.${process.pid}.${randomBytes(6).toString('hex')}.new`
    writePrivateFile(staged, fresh())
    try {
      linkSync(staged, file)
    } catch (err) {
      // EEXIST: another host's secret landed first (read again), or an unusable file sits there (replaced below).
      if ((err as NodeJS.ErrnoException).code !== 'EEXIST') throw err
    } finally {
      unlinkSync(staged)
    }
  }
  const found = readCacheSecret(dshHome)
  if (found) return found
  writePrivateFile(file, fresh())
  const last = readCacheSecret(dshHome)
  if (!last) throw new Error(`${file}: the tool-cache secret could not be created`)
  return last
}
