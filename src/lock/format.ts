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
 * Contract: pure (no fs). `parseLock(text)` returns `{ lock }` or `{ error }` (a line naming the field
 * path, never throwing); `lockText(lock)` the canonical text.
 *
 * @module
 */
import * as z from 'zod'
import { canonicalJson } from '../config/fingerprint.ts'

export const LOCK_VERSION = 1

/** One installed package of a server's tree, as npm's lockfile holds it. */
export const LockedPackage = z
  .object({
    name: z.string().min(1).optional(),
    version: z.string().min(1),
    integrity: z.string().regex(/^sha512-[A-Za-z0-9+/=]+$/, 'a sha512 integrity'),
    dependencies: z.record(z.string(), z.string()).optional(),
    optionalDependencies: z.record(z.string(), z.string()).optional(),
    peerDependencies: z.record(z.string(), z.string()).optional(),
    bin: z.record(z.string(), z.string()).optional(),
    optional: z.boolean().optional(),
    os: z.array(z.string()).optional(),
    cpu: z.array(z.string()).optional(),
  })
  .strict()
export type LockedPackage = z.infer<typeof LockedPackage>

export const LockEntry = z
  .object({
    runner: z.enum(['npx', 'npm exec', 'npm x']),
    spec: z.string().min(1),
    package: z.string().min(1),
    version: z.string().min(1),
    integrity: z.string().regex(/^sha512-[A-Za-z0-9+/=]+$/, 'a sha512 integrity'),
    bin: z.string().min(1),
    packages: z.record(z.string(), LockedPackage),
  })
  .strict()
export type LockEntry = z.infer<typeof LockEntry>

export const LockFile = z
  .object({
    lockfileVersion: z.literal(LOCK_VERSION),
    servers: z.record(z.string(), LockEntry),
  })
  .strict()
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
