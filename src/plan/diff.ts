/**
 * The diff between what is mounted and what the plan wants.
 *
 * Contract: keys are mount identities (written name + resolved config), so a
 * key in both sides is untouched — tuning-only edits never reconnect. A key
 * only in the plan is added, a key only in the current set is removed; a
 * removed and an added key with the same name and origin are reported as one
 * `changed` server (a remount). `retry` keys (failed mounts the caller wants
 * to try again) are removed and added. `diffMountsDetail` also returns the
 * removed keys that are `changed` remounts, so a caller can say why each key
 * goes without rebuilding identities. Pure.
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

/** A {@link MountDiff} plus which removed keys are the old side of a `changed` server. */
export interface MountDiffDetail extends MountDiff {
  /** Removed keys that are remounts of a `changed` server (not `retry` keys). */
  changedKeys: ReadonlySet<string>
}

export function diffMounts(
  current: ReadonlyMap<string, MountIdentity>,
  desired: ReadonlyMap<string, MountIdentity>,
  retry: ReadonlySet<string> = new Set(),
): MountDiff {
  const { add, remove, changed } = diffMountsDetail(current, desired, retry)
  return { add, remove, changed }
}

/** {@link diffMounts}, also naming the removed keys that are changes (for the caller's reasons). */
export function diffMountsDetail(
  current: ReadonlyMap<string, MountIdentity>,
  desired: ReadonlyMap<string, MountIdentity>,
  retry: ReadonlySet<string> = new Set(),
): MountDiffDetail {
  const remove = [...current.keys()].filter((k) => !desired.has(k) || retry.has(k))
  const add = [...desired.keys()].filter((k) => !current.has(k) || retry.has(k))
  const id = (m: MountIdentity) => `${m.origin}\0${m.name}`
  const added = new Set(add.filter((k) => !current.has(k)).map((k) => id(desired.get(k)!)))
  const changedKeys = new Set(remove.filter((k) => !desired.has(k) && added.has(id(current.get(k)!))))
  const changed = [...changedKeys].map((k) => current.get(k)!)
  return { add, remove, changed, changedKeys }
}
