/**
 * The user's secret store: where `${secret:NAME}` values live, never in a
 * config file.
 *
 * Contract:
 * - A secret is (scope, NAME): scope `user` (every project) or one project
 *   (`project:<root>`, the default of `dsh-mcp secret set`). A project view
 *   reads its project's secret first, then the user's; the global view reads
 *   the user's alone (`source(root)`).
 * - Backends: the OS keychain (keychain.ts) when one answers, else the 0600
 *   file (files.ts `values.json`). `set` says which it used and, for the
 *   file, why the keychain was not. `backend` (or `DSH_MCP_SECRET_BACKEND`)
 *   may require one; a required keychain that does not answer throws.
 * - Never a silent fall back: once the index records the keychain for a
 *   name, `set` of that name writes the keychain or throws, and `read` asks
 *   the keychain alone (a keychain that does not answer reads as unset, with
 *   `problem` saying why). The index (files.ts) records every name's backend
 *   and never a value.
 * - A project scope is keyed by trust/store.ts `canonicalRoot`: the same
 *   canonical root the trust records use, so a link to a checkout is the
 *   same project for secrets as for trust.
 * - `source(root).has` reads only the index; `read` is the only call that
 *   reads a value. Errors never carry a value.
 *
 * @module
 */
import { type Backend, type IndexRecord, readIndex, readValues, writeIndex, writeValue } from './files.ts'
import type { SecretSource } from '../config/expand.ts'
import { KeychainError, keychain, probeKeychain } from './keychain.ts'
import { canonicalRoot } from '../trust/store.ts'

export type { Backend, IndexRecord } from './files.ts'

export class SecretStoreError extends Error {
  constructor(message: string) {
    super(message)
    this.name = 'SecretStoreError'
  }
}

/** The index's scope of a project root (`null`: the user's own, every project). */
export function scopeKey(root: string | null): string {
  return root === null ? 'user' : `project:${canonicalRoot(root)}`
}

/** What the CLI's plan reads: which secrets are set (the index alone); `read` answers a stand-in, never a value. */
export const NOT_READ = 'secret-value-not-read'
export function secretPresence(dshHome: string, root: string | null): SecretSource {
  const source = openSecretStore({ dshHome }).source(root)
  return { has: source.has, userScoped: source.userScoped, read: (n) => (source.has(n) ? NOT_READ : undefined) }
}

/** The keychain account / file key of one secret. */
export function accountOf(scope: string, name: string): string {
  return `${scope}/${name}`
}

export interface SecretStoreOptions {
  dshHome: string
  /** Require a backend (default: `DSH_MCP_SECRET_BACKEND` of `env`, else the keychain when one answers). */
  backend?: Backend
  env?: Readonly<Record<string, string | undefined>>
}

export interface SetResult {
  backend: Backend
  /** Why the keychain was not used (the file backend only). */
  fallback?: string
}

export interface SecretStore {
  list(): IndexRecord[]
  set(scope: string, name: string, value: string): Promise<SetResult>
  /** Whether a secret was recorded (and so removed). */
  remove(scope: string, name: string): Promise<boolean>
  /** The value, or undefined with why it could not be read. */
  read(scope: string, name: string): { value: string } | { value: undefined; problem?: string }
  source(root: string | null): SecretSource
}

function requiredBackend(opts: SecretStoreOptions): Backend | undefined {
  const b = opts.backend ?? opts.env?.DSH_MCP_SECRET_BACKEND
  if (b === undefined || b === '' || b === 'auto') return undefined
  if (b === 'keychain' || b === 'file') return b
  throw new SecretStoreError(`DSH_MCP_SECRET_BACKEND must be "keychain", "file" or "auto", got an unknown value`)
}

export function openSecretStore(opts: SecretStoreOptions): SecretStore {
  const { dshHome } = opts
  const find = (scope: string, name: string) => readIndex(dshHome).find((r) => r.scope === scope && r.name === name)

  const readRecord = (r: IndexRecord): { value: string } | { value: undefined; problem?: string } => {
    const account = accountOf(r.scope, r.name)
    if (r.backend === 'file') {
      const v = readValues(dshHome)[account]
      return v === undefined ? { value: undefined, problem: 'missing from the secret file' } : { value: v }
    }
    try {
      const v = keychain.get(account)
      return v === undefined ? { value: undefined, problem: 'missing from the keychain' } : { value: v }
    } catch (err) {
      return { value: undefined, problem: (err as Error).message }
    }
  }

  const store: SecretStore = {
    list: () => readIndex(dshHome),
    async set(scope, name, value) {
      const prior = find(scope, name)
      const required = requiredBackend(opts)
      let backend: Backend
      let fallback: string | undefined
      if (prior?.backend === 'keychain') {
        if (required === 'file')
          throw new SecretStoreError(
            `secret ${name} is kept in the keychain; remove it first (dsh-mcp secret rm ${name}) to keep it in the file`,
          )
        backend = 'keychain'
      } else if (required) backend = required
      else {
        const probe = probeKeychain()
        backend = probe.ok ? 'keychain' : 'file'
        if (!probe.ok) fallback = probe.why
      }
      const account = accountOf(scope, name)
      if (backend === 'keychain') {
        try {
          keychain.set(account, value)
        } catch (err) {
          const why = err instanceof KeychainError ? err.message : 'the keychain did not answer'
          throw new SecretStoreError(
            prior?.backend === 'keychain'
              ? `secret ${name} is kept in the keychain and ${why}; it was not written to a file. Unlock the keychain and try again`
              : `${why}; nothing was stored`,
          )
        }
      } else await writeValue(dshHome, account, value)
      await writeIndex(dshHome, scope, name, { scope, name, backend, updatedAt: new Date().toISOString() })
      // A value that moved to the keychain leaves no copy in the file.
      if (backend === 'keychain' && prior?.backend === 'file') await writeValue(dshHome, account)
      return fallback === undefined ? { backend } : { backend, fallback }
    },
    async remove(scope, name) {
      const prior = find(scope, name)
      if (!prior) return false
      const account = accountOf(scope, name)
      if (prior.backend === 'keychain') {
        try {
          keychain.delete(account)
        } catch (err) {
          throw new SecretStoreError(`${(err as Error).message}; secret ${name} was not removed`)
        }
      } else await writeValue(dshHome, account)
      await writeIndex(dshHome, scope, name)
      return true
    },
    read(scope, name) {
      const r = find(scope, name)
      return r ? readRecord(r) : { value: undefined }
    },
    source(root) {
      const scopes = root === null ? ['user'] : [scopeKey(root), 'user']
      let records: IndexRecord[] | undefined
      const recordOf = (name: string) => {
        try {
          records ??= readIndex(dshHome)
        } catch {
          records = []
        }
        for (const s of scopes) {
          const r = records.find((x) => x.scope === s && x.name === name)
          if (r) return r
        }
        return undefined
      }
      return {
        has: (name) => recordOf(name) !== undefined,
        userScoped: (name) => recordOf(name)?.scope === 'user',
        read(name) {
          const r = recordOf(name)
          return r ? readRecord(r).value : undefined
        },
      }
    },
  }
  return store
}
