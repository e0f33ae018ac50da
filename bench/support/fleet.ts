/**
 * An in-memory fleet of projects for the pure-core rows (3 and 7): `projects`
 * roots with `perProject` friendly entries each, parsed once, and the plan
 * pipeline the runtime runs on a change — parse the changed file, desired
 * state over every project, effective names, diff against what is mounted.
 * The desired state goes through the runtime's plan memo (src/plan/memo.ts:
 * only the edited project is judged again), exactly as the runtime plans;
 * `planFromScratch` is the unmemoized `desiredState`, for contrast.
 *
 * Contract: pure — no file is read or written, no process spawned; `trusted`
 * says every project row passes the trust gate (the costlier path: each row
 * is expanded, mapped, checked and keyed).
 *
 * @module
 */
import { type LayerInput, projectLayerFiles } from '../../src/config/layers.ts'
import { type ParsedFile, parseConfigText } from '../../src/config/parse.ts'
import { desiredState, type Plan, type PlanInput } from '../../src/plan/desired.ts'
import { createPlanMemo, type PlanMemo } from '../../src/plan/memo.ts'
import { diffMounts, type MountDiff, type MountIdentity } from '../../src/plan/diff.ts'
import { assignNames, type NameRequest } from '../../src/plan/names.ts'
import { friendlyYaml, plainServers } from './projects.ts'

export interface Fleet {
  roots: string[]
  /** Per root: its parsed `.dsh/mcp.yml` layer. */
  layers: Map<string, LayerInput>
  mounted: Map<string, MountIdentity>
  names: Map<string, string>
  entries: number
  memo: PlanMemo
}

export const ENV = { PATH: '/usr/bin:/bin', HOME: '/home/bench' }
const DSH_HOME = '/home/bench/.dsh'

export function projectText(project: number, perProject: number, variant = 0): string {
  const servers = plainServers(perProject, 's', `p${project}`)
  // The changed entry: server 0's args differ per variant (a real reconnect-worthy change).
  servers.s0!.args = [`./tools/p${project}-server-0.js`, '--variant', String(variant)]
  return friendlyYaml(servers)
}

export function parseLayer(root: string, text: string): LayerInput {
  const layer = projectLayerFiles(root).find((l) => l.file.endsWith('mcp.yml') && l.scope === 'project')!
  const parsed: ParsedFile = parseConfigText(text, { file: layer.file, format: 'friendly' })
  if (!parsed.ok) throw new Error(`bench config did not parse: ${JSON.stringify(parsed.diagnostics)}`)
  return { layer, parsed }
}

function planInput(fleet: Pick<Fleet, 'roots' | 'layers'>): PlanInput {
  return {
    projects: fleet.roots.map((root) => ({ root, layers: [fleet.layers.get(root)!] })),
    user: [],
    env: ENV,
    dshHome: DSH_HOME,
    platform: 'linux',
    trust: () => 'trusted',
  }
}

/** The fleet's desired state, as the runtime computes it (through its memo). */
export function plan(fleet: Pick<Fleet, 'roots' | 'layers' | 'memo'>): Plan {
  return fleet.memo.plan(planInput(fleet))
}

/** The same desired state judged from scratch (every row of every project). */
export function planFromScratch(fleet: Pick<Fleet, 'roots' | 'layers'>): Plan {
  return desiredState(planInput(fleet))
}

function identities(p: Plan): Map<string, MountIdentity> {
  return new Map([...p.mounts].map(([key, m]) => [key, { name: m.name, origin: m.origin }]))
}

function requests(p: Plan): NameRequest[] {
  return [...p.mounts.values()].map((m) => ({
    key: m.key,
    name: m.name,
    origin: m.origin,
    priority: m.layer === 'user' ? 0 : 1,
  }))
}

/** A fleet whose every mount is "mounted" (names held). */
export function makeFleet(projects: number, perProject: number): Fleet {
  const roots = Array.from({ length: projects }, (_, i) => `/work/repos/project-${i}`)
  const layers = new Map(roots.map((root, i) => [root, parseLayer(root, projectText(i, perProject))]))
  const memo = createPlanMemo()
  const first = plan({ roots, layers, memo })
  const names = assignNames(new Map(), requests(first))
  return { roots, layers, mounted: identities(first), names, entries: projects * perProject, memo }
}

export interface ReconcileTimes {
  /** CPU µs of each phase (user + system). */
  parseUs: number
  desiredUs: number
  namesDiffUs: number
  totalUs: number
  diff: MountDiff
}

function cpu(since?: NodeJS.CpuUsage): number {
  const u = process.cpuUsage(since)
  return u.user + u.system
}

/** One reconcile after project `project`'s file changed to `text`; the fleet then holds the new state. */
export function reconcile(fleet: Fleet, project: number, text: string): ReconcileTimes {
  const root = fleet.roots[project]!
  const t0 = process.cpuUsage()
  fleet.layers.set(root, parseLayer(root, text))
  const parseUs = cpu(t0)
  const t1 = process.cpuUsage()
  const next = plan(fleet)
  const desiredUs = cpu(t1)
  const t2 = process.cpuUsage()
  const held = new Map([...fleet.names].filter(([key]) => next.mounts.has(key)))
  const names = assignNames(held, requests(next))
  const wanted = identities(next)
  const diff = diffMounts(fleet.mounted, wanted)
  const namesDiffUs = cpu(t2)
  fleet.mounted = wanted
  fleet.names = names
  return { parseUs, desiredUs, namesDiffUs, totalUs: cpu(t0), diff }
}
