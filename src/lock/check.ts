/**
 * Whether a lock entry is one the config's package spec can have produced: the check every edge runs
 * before it trusts an entry (the launcher at a start, `prepare`, `verify --frozen` / `lock --check`). The
 * spec a config writes is what trust covers; an edit to the lock alone must not swap what it runs.
 *
 * An entry is valid only when: its `spec` is the config's; its `package` is the spec's package name; its
 * `version` is the spec's exact version (a pinned spec) or satisfies the spec's range (a tag: any exact
 * version, what `lock` resolved — the schema, format.ts, already holds it to exact semver); the root of its
 * tree (`packages["node_modules/<name>"]`) is that name at that version with that integrity, not an alias;
 * and its `bin` is the bin the runner would run (`-p pkg <bin>`'s bin, else npx's rule: the bin named like
 * the package, else its only bin) among the package's bins — the installed package.json's bins when the
 * caller has them (the store), else the lock's record of them.
 *
 * Contract: pure (no fs). `checkLockEntry(entry, want, bins?)` returns `{ ok: true }` or
 * `{ ok: false, field, message }` (`field`: spec | package | version | root | bin; `message` one line
 * naming what the lock says and what the config asks). `npxBin(name, bins, asked?)` is npx's bin choice:
 * `{ bin }` or `{ error }`.
 *
 * @module
 */
import semver from 'semver'
import type { LockEntry } from './format.ts'

export type EntryCheck =
  | { ok: true }
  | { ok: false; field: 'spec' | 'package' | 'version' | 'root' | 'bin'; message: string }

/** What the config asks for: the package spec as written and the bin named with `-p`, if any. */
export interface EntryWant {
  spec: string
  bin?: string | undefined
}

/** The package name and the version, range or tag of a spec (`latest` when none is written). */
export function specParts(spec: string): { name: string; range: string } | undefined {
  const m = /^((?:@[^/@]+\/)?[^@]+)(?:@(.+))?$/.exec(spec)
  return m ? { name: m[1]!, range: m[2] ?? 'latest' } : undefined
}

/** npx's choice of bin: the one asked for, else the one named like the package, else its only bin. */
export function npxBin(
  name: string,
  bins: Readonly<Record<string, string>>,
  asked?: string,
): { bin: string } | { error: string } {
  const names = Object.keys(bins)
  if (asked !== undefined) return names.includes(asked) ? { bin: asked } : { error: `${name} has no bin ${asked}` }
  const own = name.replace(/^@[^/]+\//, '')
  if (names.includes(own)) return { bin: own }
  if (names.length === 1) return { bin: names[0]! }
  return {
    error:
      names.length === 0
        ? `${name} has no bin to run`
        : `${name} has several bins (${names.join(', ')}) and none named ${own}: name one with -p ${name} <bin>`,
  }
}

const fail = (field: Exclude<EntryCheck, { ok: true }>['field'], message: string): EntryCheck => ({
  ok: false,
  field,
  message,
})

export function checkLockEntry(entry: LockEntry, want: EntryWant, bins?: Readonly<Record<string, string>>): EntryCheck {
  if (entry.spec !== want.spec) return fail('spec', `the lock was made for ${entry.spec}, the config runs ${want.spec}`)
  const parts = specParts(want.spec)
  if (!parts) return fail('spec', `${want.spec} is not a registry package spec`)
  if (entry.package !== parts.name)
    return fail('package', `the lock names package ${entry.package}, the config runs ${parts.name} (${want.spec})`)
  const exact = semver.valid(parts.range)
  if (!semver.valid(entry.version))
    return fail('version', `the lock's version ${entry.version} is not an exact version`)
  if (
    exact !== null
      ? !semver.eq(entry.version, exact)
      : isRange(parts.range) && !semver.satisfies(entry.version, parts.range)
  )
    return fail('version', `the lock names ${parts.name}@${entry.version}, which ${want.spec} does not allow`)
  const root = entry.packages[`node_modules/${parts.name}`]
  if (!root || root.version !== entry.version || root.integrity !== entry.integrity || root.name !== undefined)
    return fail(
      'root',
      `the lock's dependency tree does not hold ${parts.name}@${entry.version} with the entry's integrity at its root`,
    )
  const chosen = npxBin(parts.name, bins ?? root.bin ?? {}, want.bin)
  if ('error' in chosen) return fail('bin', chosen.error)
  if (chosen.bin !== entry.bin)
    return fail('bin', `the lock runs bin ${entry.bin}, the config's ${want.spec} runs ${chosen.bin}`)
  return { ok: true }
}

/** A semver range (not a dist-tag like `latest` or `next`, which only the registry can resolve). */
function isRange(range: string): boolean {
  return semver.validRange(range) !== null
}
