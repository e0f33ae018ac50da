/**
 * Deny sets: which registered MCP tools one agent must not see.
 *
 * Contract: a viewer (an agent's project, or the global view) may see exactly
 * the tools of the mounts its placements use, minus what each placement's
 * `tools` filter excludes. Every other tool owned by one of our mounts —
 * another project's, a global server the project shadows, a mount being torn
 * down — is denied. Tools we do not own (built-ins, other plugins) are never
 * touched. Only names in `registered` are returned, so the result is always
 * a valid `restrict({deny})` argument. Pure.
 *
 * @module
 */
import { admits, isRestrictive, normalizedFilter, type ToolFilter } from './filter.ts'
import type { Placement } from './desired.ts'
import { type OwnerIndex, ownerIndex, publicToolName, rawNameOf } from './tool-names.ts'

/** key → filter of the mounts one viewer uses. */
export type Visible = ReadonlyMap<string, ToolFilter | undefined>

export function visibleOf(placements: readonly Placement[]): Map<string, ToolFilter | undefined> {
  const out = new Map<string, ToolFilter | undefined>()
  for (const p of placements) if (p.verdict.tag === 'runs' && p.key) out.set(p.key, p.filter)
  return out
}

/** Our mounts by effective name: the key, or `null` for a mount being torn down (visible to nobody). */
export type Owners = ReadonlyMap<string, string | null>

export interface Ownership {
  owners: Owners
  index: OwnerIndex
}

export function ownership(owners: Owners): Ownership {
  return { owners, index: ownerIndex(owners.keys()) }
}

/** The registered tools `visible` must not see. */
export function denySet(registered: readonly string[], own: Ownership, visible: Visible): string[] {
  const deny: string[] = []
  for (const name of registered) {
    const server = own.index.ownerOf(name)
    if (server === undefined) continue
    const key = own.owners.get(server)
    if (key === undefined) continue
    if (key === null || !visible.has(key)) {
      deny.push(name)
      continue
    }
    const filter = visible.get(key)
    if (!isRestrictive(filter)) continue
    // A raw name that only survives normalized (the public name carries a hash) is judged by normalized globs.
    const raw = rawNameOf(name, server)
    if (!admits(publicToolName(server, raw) === name ? filter : normalizedFilter(filter!), raw)) deny.push(name)
  }
  return deny
}

/** Registered tools owned by each mount key (for tool counts). */
export function toolsByKey(registered: readonly string[], own: Ownership): Map<string, string[]> {
  const out = new Map<string, string[]>()
  for (const name of registered) {
    const server = own.index.ownerOf(name)
    const key = server === undefined ? undefined : own.owners.get(server)
    if (!key) continue
    const list = out.get(key)
    if (list) list.push(name)
    else out.set(key, [name])
  }
  return out
}
