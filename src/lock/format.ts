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
 * no registry address — integrity pins the bytes, the user's registry setting serves them). Every package of
 * the tree is held to registry tarballs only: a valid package name (npm's rules), an exact semver version,
 * one `sha512-` integrity, install locations under `node_modules/`, declared dependencies that are registry
 * ranges or tags — no URL, path, git or tarball spec is accepted anywhere (prepare hands the tree to npm).
 * Whether an entry is the one its spec names is check.ts's (it needs the config).
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
/** One sha512 integrity as the registry publishes it (64 bytes, base64). */
const sha512 = () => z.string().check(z.regex(/^sha512-[A-Za-z0-9+/]{86}==$/, 'a sha512 integrity'))
/** npm's package-name rules (validate-npm-package-name's pattern; upper case kept for old packages). */
export const PACKAGE_NAME = /^(?:@[A-Za-z0-9-~][A-Za-z0-9-._~]*\/)?[A-Za-z0-9-~][A-Za-z0-9-._~]*$/
const pkgName = () => z.string().check(z.maxLength(214), z.regex(PACKAGE_NAME, 'a package name (npm rules)'))
/** An exact semver version (semver.org's grammar): never a URL, path, git or tarball spec. */
export const EXACT_VERSION =
  /^(0|[1-9]\d*)\.(0|[1-9]\d*)\.(0|[1-9]\d*)(?:-((?:0|[1-9]\d*|\d*[a-zA-Z-][0-9a-zA-Z-]*)(?:\.(?:0|[1-9]\d*|\d*[a-zA-Z-][0-9a-zA-Z-]*))*))?(?:\+([0-9a-zA-Z-]+(?:\.[0-9a-zA-Z-]+)*))?$/
const exact = () => z.string().check(z.maxLength(256), z.regex(EXACT_VERSION, 'an exact semver version'))
/**
 * A declared dependency: a registry range or dist-tag (`^1.2.0`, `1.x || 2`, `*`, `latest`) or an
 * `npm:` alias of one — no URL, path, git, GitHub or tarball spec (a `:` or `/` other than the alias's
 * scope, or a leading `.` / `~/`, which npm reads as a directory).
 */
const RANGE = /^(?![.])[A-Za-z0-9.*^~<>=| +_-]*$/
const depSpec = () =>
  z.string().check(
    z.maxLength(256),
    z.refine((v) => {
      if (RANGE.test(v)) return true
      const m = /^npm:((?:@[^/@]+\/)?[^@/]+)(?:@(.*))?$/.exec(v)
      return m !== null && PACKAGE_NAME.test(m[1]!) && RANGE.test(m[2] ?? '')
    }, 'a registry range or tag (no URL, path or git spec)'),
  )
const deps = () => z.optional(z.record(pkgName(), depSpec()))
const names = () => z.optional(z.record(z.string(), z.string()))
/** An install location in npm's lockfile shape: `node_modules/<name>` nested under another, never a path out. */
const LOCATION = new RegExp(
  `^node_modules/${PACKAGE_NAME.source.slice(1, -1)}(?:/node_modules/${PACKAGE_NAME.source.slice(1, -1)})*$`,
)
const location = () => z.string().check(z.regex(LOCATION, 'an install location (node_modules/<name>)'))

/** One installed package of a server's tree, as npm's lockfile holds it. */
export const LockedPackage = z.strictObject({
  name: z.optional(pkgName()),
  version: exact(),
  integrity: sha512(),
  dependencies: deps(),
  optionalDependencies: deps(),
  peerDependencies: deps(),
  bin: names(),
  optional: z.optional(z.boolean()),
  os: z.optional(z.array(z.string())),
  cpu: z.optional(z.array(z.string())),
})
export type LockedPackage = z.infer<typeof LockedPackage>

export const LockEntry = z.strictObject({
  runner: z.enum(['npx', 'npm exec', 'npm x']),
  spec: text(),
  package: pkgName(),
  version: exact(),
  integrity: sha512(),
  bin: text(),
  packages: z.record(location(), LockedPackage),
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
