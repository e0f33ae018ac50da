/**
 * Lifecycle policy: which mounts start lazily, and when they are released.
 *
 * Contract: pure. A mount key is `lazy` only when every placement that uses
 * it (in any view) resolves to lazy — its own `lifecycle`, else the plugin's
 * `defaultLifecycle` — so sharing one mount with an eager row keeps it eager.
 * Its idle timeout is the longest of those rows' (`idleTimeoutMs`, else the
 * plugin default); `0` means never released and wins.
 *
 * @module
 */
import type { Lifecycle } from '../config/schema.ts'
import type { Placement, Plan } from '../plan/desired.ts'

export interface LifecycleDefaults {
  defaultLifecycle: Lifecycle
  idleTimeoutMs: number
}

export interface KeyPolicy {
  lazy: boolean
  /** Release after this long without a call; 0: never. */
  idleMs: number
}

export function lifecyclePolicy(
  plan: Pick<Plan, 'global' | 'projects'>,
  defaults: LifecycleDefaults,
): Map<string, KeyPolicy> {
  const out = new Map<string, KeyPolicy>()
  const visit = (p: Placement) => {
    if (p.verdict.tag !== 'runs' || !p.key) return
    const lazy = (p.lifecycle ?? defaults.defaultLifecycle) === 'lazy'
    const idle = p.idleTimeoutMs ?? defaults.idleTimeoutMs
    const prev = out.get(p.key)
    if (!prev) {
      out.set(p.key, { lazy, idleMs: idle })
      return
    }
    prev.lazy &&= lazy
    prev.idleMs = prev.idleMs === 0 || idle === 0 ? 0 : Math.max(prev.idleMs, idle)
  }
  for (const p of plan.global) visit(p)
  for (const placements of plan.projects.values()) for (const p of placements) visit(p)
  return out
}
