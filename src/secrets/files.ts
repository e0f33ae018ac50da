/**
 * The two files of the secret store under `$DSH_HOME/mcp-secrets/` (a 0700
 * directory): `index.json`, the non-secret record of which secret exists in
 * which scope and backend, and `values.json`, the 0600 file backend used only
 * where no keychain answers.
 *
 * Contract: both are JSON, read synchronously without following a link and
 * refused when another user owns them (a refused or malformed file reads as
 * a `SecretFileError`, never as empty: a store that cannot be read must not
 * look like "no secret set"). Writes go through `updateFile` with `private`
 * (locked read-modify-write, atomic, 0600). `index.json` never holds a value.
 *
 * @module
 */
import { closeSync, constants, fstatSync, openSync, readFileSync } from 'node:fs'
import path from 'node:path'
import { isRecord } from '../config/guards.ts'
import { ensurePrivateDir, ownedByOther } from '../files/private-dir.ts'

export const SECRETS_DIR = 'mcp-secrets'
export type Backend = 'keychain' | 'file'

/** One secret as the index records it (no value). */
export interface IndexRecord {
  /** `user`, or `project:<root>`. */
  scope: string
  name: string
  backend: Backend
  updatedAt: string
}

export class SecretFileError extends Error {
  constructor(file: string, message: string) {
    super(`${file}: ${message}`)
    this.name = 'SecretFileError'
  }
}

export function secretsDir(dshHome: string): string {
  return path.join(dshHome, SECRETS_DIR)
}
export const indexFile = (dshHome: string) => path.join(secretsDir(dshHome), 'index.json')
export const valuesFile = (dshHome: string) => path.join(secretsDir(dshHome), 'values.json')

function readJson(file: string): unknown {
  let fd: number
  try {
    fd = openSync(file, constants.O_RDONLY | (constants.O_NOFOLLOW ?? 0))
  } catch (err) {
    const code = (err as NodeJS.ErrnoException).code
    if (code === 'ENOENT') return undefined
    if (code === 'ELOOP') throw new SecretFileError(file, 'is a symbolic link; remove it')
    throw new SecretFileError(file, `cannot be read (${code})`)
  }
  try {
    const st = fstatSync(fd)
    if (!st.isFile()) throw new SecretFileError(file, 'is not a regular file')
    if (ownedByOther(st)) throw new SecretFileError(file, 'is owned by another user; remove it')
    const text = readFileSync(fd, 'utf8')
    try {
      return JSON.parse(text)
    } catch {
      throw new SecretFileError(file, 'is not valid JSON; repair or remove it')
    }
  } finally {
    closeSync(fd)
  }
}

export function readIndex(dshHome: string): IndexRecord[] {
  const data = readJson(indexFile(dshHome))
  if (data === undefined) return []
  if (!isRecord(data) || !Array.isArray(data.secrets))
    throw new SecretFileError(indexFile(dshHome), 'is not a secret index')
  return data.secrets.filter(
    (r): r is IndexRecord =>
      isRecord(r) &&
      typeof r.scope === 'string' &&
      typeof r.name === 'string' &&
      (r.backend === 'keychain' || r.backend === 'file'),
  )
}

export function readValues(dshHome: string): Record<string, string> {
  const data = readJson(valuesFile(dshHome))
  if (data === undefined) return {}
  if (!isRecord(data) || !isRecord(data.values)) throw new SecretFileError(valuesFile(dshHome), 'is not a secret file')
  const out: Record<string, string> = Object.create(null)
  for (const [k, v] of Object.entries(data.values)) if (typeof v === 'string') out[k] = v
  return out
}

async function update(dshHome: string, file: string, edit: (current: unknown) => unknown): Promise<void> {
  ensurePrivateDir(secretsDir(dshHome), { base: dshHome })
  // The writer (a lock library) loads only when a secret is written: `list` and `status` never pay for it.
  const { updateFile } = await import('../files/write.ts')
  await updateFile(
    file,
    (text) => {
      const current = text === undefined ? undefined : readJson(file)
      return `${JSON.stringify(edit(current), null, 2)}\n`
    },
    { private: true },
  )
}

/** Replace the index record of (scope, name), or remove it (`record` undefined). */
export function writeIndex(dshHome: string, scope: string, name: string, record?: IndexRecord): Promise<void> {
  return update(dshHome, indexFile(dshHome), () => {
    const rest = readIndex(dshHome).filter((r) => !(r.scope === scope && r.name === name))
    return { version: 1, secrets: record ? [...rest, record] : rest }
  })
}

/** Set or remove (`value` undefined) one value of the file backend. */
export function writeValue(dshHome: string, key: string, value?: string): Promise<void> {
  return update(dshHome, valuesFile(dshHome), () => {
    const values = { ...readValues(dshHome) }
    if (value === undefined) delete values[key]
    else values[key] = value
    return { version: 1, values }
  })
}
