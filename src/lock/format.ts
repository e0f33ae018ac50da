/**
 * The lock file `.dsh/mcp.lock`: its format (one zod schema), how it is read from text and written as
 * text (stable order: keys sorted at every level, two-space indent, a final newline, so a re-lock with no
 * change writes the same bytes and a pull request diff shows only what changed).
 *
 * One entry per server that launches a registry package through a package runner, keyed by the server's
 * name: the runner, the package spec as the config writes it (`spec`, what staleness is judged against),
 * the resolved package name, exact version and tarball integrity (`sha512-…` as the registry publishes it),
 * the bin that runs, and the resolved dependency tree (`packages`: npm's own lockfile shape keyed by
 * install location, `node_modules/<name>`, each with version, integrity and its declared dependencies;
 * no registry address — integrity pins the bytes, the user's registry setting serves them).
 *
 * Contract: pure (no fs); zod's mini build, and no config parser: the launcher reads the lock at a start. `parseLock(text)` returns `{ lock }` or `{ error }` (a line naming the field
 * path, never throwing); `lockText(lock)` the canonical text.
 *
 * @module
 */
import * as z from 'zod/mini'
import { canonicalJson } from '../config/canonical-json.ts'

export const LOCK_VERSION = 1

const text = () => z.string().check(z.minLength(1))
const sha512 = () => z.string().check(z.regex(/^sha512-[A-Za-z0-9+/=]+$/, 'a sha512 integrity'))
const names = () => z.optional(z.record(z.string(), z.string()))

/** One installed package of a server's tree, as npm's lockfile holds it. */
export const LockedPackage = z.strictObject({
  name: z.optional(text()),
  version: text(),
  integrity: sha512(),
  dependencies: names(),
  optionalDependencies: names(),
  peerDependencies: names(),
  bin: names(),
  optional: z.optional(z.boolean()),
  os: z.optional(z.array(z.string())),
  cpu: z.optional(z.array(z.string())),
})
export type LockedPackage = z.infer<typeof LockedPackage>

export const LockEntry = z.strictObject({
  runner: z.enum(['npx', 'npm exec', 'npm x']),
  spec: text(),
  package: text(),
  version: text(),
  integrity: sha512(),
  bin: text(),
  packages: z.record(z.string(), LockedPackage),
})
export type LockEntry = z.infer<typeof LockEntry>

export const LockFile = z.strictObject({
  lockfileVersion: z.literal(LOCK_VERSION),
  servers: z.record(z.string(), LockEntry),
})
export type LockFile = z.infer<typeof LockFile>

export function emptyLock(): LockFile {
  return { lockfileVersion: LOCK_VERSION, servers: {} }
}

/** The lock's canonical text: sorted keys at every level, two-space indent, final newline. */
export function lockText(lock: LockFile): string {
  return `${JSON.stringify(JSON.parse(canonicalJson(lock)), null, 2)}\n`
}

export function parseLock(text: string): { lock: LockFile } | { error: string } {
  let value: unknown
  try {
    value = JSON.parse(text)
  } catch (e) {
    return { error: `not JSON: ${(e as Error).message}` }
  }
  const r = LockFile.safeParse(value)
  if (r.success) return { lock: r.data }
  const issue = r.error.issues[0]!
  return { error: `${issue.path.map(String).join('.') || '(root)'}: ${issue.message}` }
}
