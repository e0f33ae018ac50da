/**
 * The trust gate's seam (spec §4 "Trust"): which project-layer rows may mount.
 *
 * Contract: `check(root, row)` answers `trusted | untrusted | changed` for an
 * active project-layer row (user-layer rows are never asked); `files()` names
 * the files whose change must trigger a reconcile (the trust store);
 * `refresh()` is called at the start of every reconcile so a decision reads a
 * fresh store. With `trust: 'all'` (or env `DSH_MCP_TRUST_ALL=1`) everything is
 * trusted.
 *
 * This pass ships the seam with the gate OFF in both modes: every row is
 * trusted. Wiring the real store is a change to this file only:
 * `refresh()` → `store = readTrustStore(dshHome)`, `check` →
 * `trustStateOf(store, canonicalRoot(root), row.name, trustFingerprint(row.entry))`
 * when `mode === 'require' && !trustGateOff(env)`, and `files()` →
 * `[trustFilePath(dshHome)]`.
 *
 * @module
 */
import type { Row } from '../config/layers.ts'
import type { TrustFn, TrustVerdict } from '../plan/desired.ts'

export interface TrustGate {
  check: TrustFn
  files(): string[]
  refresh(): void
}

export interface TrustGateOptions {
  mode: 'require' | 'all'
  dshHome: string
  env: Readonly<Record<string, string | undefined>>
}

export function createTrustGate(_opts: TrustGateOptions): TrustGate {
  return {
    check: (_root: string, _row: Row): TrustVerdict => 'trusted',
    files: () => [],
    refresh: () => {},
  }
}
