/**
 * Writers of the trust store (re-exported by store.ts, where callers import them).
 *
 * Contract: `trustServers`, `untrustServers`, `pinFirstTools` and `pinSignedTools`
 * change the store through `updateStore`: `$DSH_HOME` created private, the store
 * refused (throw, file untouched) when store.ts `refusal` or a lock-path problem
 * says so, then an exclusive lock, a re-read and an atomic 0600 write through
 * files/write.ts — loaded here on the first write only, so readers never pay for it.
 * Content that is not JSON, not a version-1 store, or a newer version is refused
 * (`storeForWrite`): a write never wipes records it cannot read.
 *
 * @module
 */
import { lockPathProblem } from '../files/lock-path.ts'
import { ensurePrivateDir } from '../files/private-dir.ts'
import { isRecord } from '../config/guards.ts'
import {
  dict,
  emptyTrustStore,
  sanitizeTrustStore,
  signedPinsOf,
  type TrustRecord,
  trustRecordOf,
  type TrustStore,
} from './state.ts'
import { canonicalRoot, jsonWhere, refusal, trustFilePath } from './store.ts'
import type { ToolPins } from './tool-pins.ts'

/** Run `change` on the store under the lock and write the result atomically. */
async function updateStore<T>(
  dshHome: string,
  root: string,
  change: (store: TrustStore, key: string) => T,
): Promise<T> {
  try {
    ensurePrivateDir(dshHome)
  } catch (err) {
    throw new Error(`refusing to write the trust store: ${(err as Error).message}`)
  }
  const file = trustFilePath(dshHome)
  // Content problems are judged under the lock by storeForWrite (with where the file is broken).
  const refused = refusal(file, root) ?? lockPathProblem(file)
  if (refused) throw new Error(`refusing to write the trust store: ${refused}`)
  const { updateFile, WriteError } = await import('../files/write.ts')
  let result: { value: T } | undefined
  try {
    await updateFile(
      file,
      (text) => {
        const again = refusal(file, root)
        if (again) throw new Error(`refusing to write the trust store: ${again}`)
        const store = storeForWrite(file, text)
        result = { value: change(store, canonicalRoot(root)) }
        return `${JSON.stringify(store, null, 2)}\n`
      },
      { private: true },
    )
  } catch (err) {
    throw err instanceof WriteError ? new Error(`refusing to write the trust store: ${err.message}`) : err
  }
  // updateFile ran the edit, or threw.
  return result!.value
}

/**
 * The store to modify from the file's text as read under the lock: empty
 * when the file does not exist (`undefined`); throws — the file untouched —
 * when it is not JSON, not a store, or a version this build does not know
 * (a newer dsh-mcp wrote it), so a write never wipes records.
 */
function storeForWrite(file: string, text: string | undefined): TrustStore {
  if (text === undefined) return emptyTrustStore()
  const repair = `; nothing was written. Repair it by hand (it is JSON), or move it aside (mv ${file} ${file}.bak) and trust your servers again`
  let value: unknown
  try {
    value = JSON.parse(text)
  } catch (err) {
    throw new Error(`refusing to write the trust store: ${file} is not valid JSON (${jsonWhere(err, text)})${repair}`)
  }
  if (isRecord(value) && typeof value.version === 'number' && value.version > 1) {
    throw new Error(
      `refusing to write the trust store: ${file} was written by a newer dsh-mcp (store version ${value.version}; this one writes version 1); upgrade dsh-mcp, nothing was written`,
    )
  }
  if (!isRecord(value) || value.version !== 1 || !isRecord(value.projects)) {
    throw new Error(`refusing to write the trust store: ${file} is not a version 1 trust store${repair}`)
  }
  return sanitizeTrustStore(value)
}

/**
 * Record `servers` as trusted. A server's `tools` (the offered list the user just accepted) replace its pins;
 * without them its pins are kept for the same fingerprint, and dropped for another (a changed config trusted:
 * a new launch, whose tools are pinned at its first mount, as at a first trust).
 */
export function trustServers(
  dshHome: string,
  root: string,
  servers: { name: string; fingerprint: string; fields?: Record<string, string>; tools?: ToolPins }[],
): Promise<void> {
  const trustedAt = new Date().toISOString()
  return updateStore(dshHome, root, (store, key) => {
    const project = Object.hasOwn(store.projects, key) ? store.projects[key]! : { servers: dict<TrustRecord>() }
    store.projects[key] = project
    for (const s of servers) {
      const was = Object.hasOwn(project.servers, s.name) ? project.servers[s.name] : undefined
      const tools = s.tools ?? (was?.fingerprint === s.fingerprint ? was.tools : undefined)
      project.servers[s.name] = {
        fingerprint: s.fingerprint,
        trustedAt,
        ...(s.fields ? { fields: s.fields } : {}),
        ...(tools ? { tools } : {}),
      }
      if (project.revoked) delete project.revoked[s.name]
    }
    if (project.revoked && Object.keys(project.revoked).length === 0) delete project.revoked
    if (Object.keys(project.servers).length === 0 && !project.revoked) delete store.projects[key]
  })
}

/**
 * The host's first pin: record `tools` for `name` only when its record still holds `fingerprint` and no pins
 * (a record trusted before pins existed, or not mounted since it was trusted). Returns whether it wrote them.
 */
export function pinFirstTools(
  dshHome: string,
  root: string,
  name: string,
  fingerprint: string,
  tools: ToolPins,
): Promise<boolean> {
  return updateStore(dshHome, root, (store, key) => {
    const r = trustRecordOf(store, key, name)
    if (!r || r.fingerprint !== fingerprint || r.tools) return false
    r.tools = tools
    return true
  })
}

/** Pin the first tools of `name`, run on a team signature of `fingerprint`, in the user's own store (not when pinned already). */
export function pinSignedTools(
  dshHome: string,
  root: string,
  name: string,
  fingerprint: string,
  tools: ToolPins,
): Promise<boolean> {
  return updateStore(dshHome, root, (store, key) => {
    if (signedPinsOf(store, key, name, fingerprint)) return false
    const project = Object.hasOwn(store.projects, key) ? store.projects[key]! : { servers: dict<TrustRecord>() }
    project.signedTools ??= dict()
    project.signedTools[name] = { fingerprint, tools }
    store.projects[key] = project
    return true
  })
}

/**
 * Remove records of `names` (or every record of the project); returns the names removed. `revoke`: names
 * whose team signatures this user withdraws (a mark kept until `trustServers` trusts the name again).
 */
export function untrustServers(
  dshHome: string,
  root: string,
  names: string[] | 'all',
  revoke: readonly string[] = [],
): Promise<string[]> {
  return updateStore(dshHome, root, (store, key) => {
    const project = Object.hasOwn(store.projects, key) ? store.projects[key]! : { servers: dict<TrustRecord>() }
    const removed =
      names === 'all' ? Object.keys(project.servers) : names.filter((n) => Object.hasOwn(project.servers, n))
    for (const n of removed) delete project.servers[n]
    if (revoke.length > 0) {
      const at = new Date().toISOString()
      project.revoked ??= dict<string>()
      for (const n of revoke) project.revoked[n] = at
    }
    if (Object.keys(project.servers).length === 0 && !project.revoked) delete store.projects[key]
    else store.projects[key] = project
    return removed
  })
}
