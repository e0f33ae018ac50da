/**
 * The diff between what is mounted and what the plan wants.
 *
 * Contract: keys are mount identities (written name + resolved config), so a
 * key in both sides is untouched — tuning-only edits never reconnect. A key
 * only in the plan is added, a key only in the current set is removed; a
 * removed and an added key with the same name and origin are reported as one
 * `changed` server (a remount). `retry` keys (failed mounts the caller wants
 * to try again) are removed and added. Pure.
 *
 * @module
 */

export interface MountIdentity {
  name: string
  origin: string
}

export interface MountDiff {
  add: string[]
  remove: string[]
  /** Servers remounted because their resolved config changed. */
  changed: MountIdentity[]
}

export function diffMounts(
  current: ReadonlyMap<string, MountIdentity>,
  desired: ReadonlyMap<string, MountIdentity>,
  retry: ReadonlySet<string> = new Set(),
): MountDiff {
  const remove = [...current.keys()].filter((k) => !desired.has(k) || retry.has(k))
  const add = [...desired.keys()].filter((k) => !current.has(k) || retry.has(k))
  const id = (m: MountIdentity) => `${m.origin}\0${m.name}`
  const added = new Set(add.filter((k) => !current.has(k)).map((k) => id(desired.get(k)!)))
  const changed = remove
    .filter((k) => !desired.has(k))
    .map((k) => current.get(k)!)
    .filter((m) => added.has(id(m)))
  return { add, remove, changed }
}
