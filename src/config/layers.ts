/**
 * Layers: which files make up a project's configuration, and how rows with
 * the same server name across them resolve.
 *
 * Contract (docs/guide/layers.md): precedence is local > `.dsh/mcp.yml` >
 * `.dsh/mcp.json` > `.mcp.json` > user. For each name the highest full row
 * wins; every lower row is `shadowed` by it. A partial local row (`enabled`,
 * `env`, `headers`, tuning keys — no `command`/`url`) merges onto the row it
 * shadows. An invalid or disabled winner still shadows the rows below it:
 * the user's intent to override is respected, never silently undone.
 * Monorepos (docs/guide/monorepos.md): a project's files come first (level
 * 0), then the files of each parent directory up to the repository root
 * (level 1, 2, …; config/inherit.ts builds the chain), then the user file:
 * rank = level × `LEVEL_STRIDE` + the file's place, so the nearest file
 * wins per name. A file's `disable: [names]` turns off the winning row of
 * each name when that row comes from a weaker file (a parent directory's,
 * the user's): the row is `disabled` with `disabledBy` naming the file;
 * a row from the disabling file or a stronger one is untouched.
 * Every row records its provenance (`sources`: the files that contributed
 * a field); a row needs trust when any of them is a repository file
 * (`repositoryContribution`) — a user row with a local override included.
 * Pure: paths are computed with `node:path`, files are passed in parsed.
 *
 * @module
 */
import path from 'node:path'
import type { Diagnostic } from './diagnostics.ts'
import { transportOf } from './entry.ts'
import type { FileFormat, ParsedFile } from './parse.ts'
import type { Entry } from './schema.ts'

export type Scope = 'local' | 'project' | 'legacy' | 'user'

/** One config file slot of a project or of the user. */
export interface LayerFile {
  scope: Scope
  format: FileFormat
  file: string
  /** Lower is stronger. */
  rank: number
  /** 0: the project's own file; n: the file of its n-th parent directory (a monorepo's ancestors). Absent: 0 (or the user file). */
  level?: number
}

/** Rank distance between two directory levels of a monorepo (more than the files of one directory). */
export const LEVEL_STRIDE = 10
/** The user file's rank: weaker than every project file of any level. */
export const USER_RANK = 1_000_000

export { dshHome } from './home.ts'

export function userLayerFile(home: string): LayerFile {
  return { scope: 'user', format: 'friendly', file: path.join(home, 'mcp.yml'), rank: USER_RANK }
}

/** The layer files of a project directory, strongest first (`level`: its distance above the project, 0 for the project). */
export function projectLayerFiles(root: string, opts: { legacyMcpJson?: boolean } = {}, level = 0): LayerFile[] {
  const at = level * LEVEL_STRIDE
  const lvl = level > 0 ? { level } : {}
  const files: LayerFile[] = [
    { scope: 'local', format: 'friendly', file: path.join(root, '.dsh', 'mcp.local.yml'), rank: at, ...lvl },
    { scope: 'project', format: 'friendly', file: path.join(root, '.dsh', 'mcp.yml'), rank: at + 1, ...lvl },
    { scope: 'project', format: 'mcpServers', file: path.join(root, '.dsh', 'mcp.json'), rank: at + 2, ...lvl },
  ]
  if (opts.legacyMcpJson !== false)
    files.push({ scope: 'legacy', format: 'mcpServers', file: path.join(root, '.mcp.json'), rank: at + 3, ...lvl })
  return files
}

/** The project directory a project layer file belongs to (`.mcp.json`'s directory, `.dsh/`'s parent). */
export function layerDirOf(layer: { scope: Scope; file: string }): string {
  return layer.scope === 'legacy' ? path.dirname(layer.file) : path.dirname(path.dirname(layer.file))
}

export type RowState = 'active' | 'shadowed' | 'disabled' | 'invalid'

/** One file that contributed to a row. */
export interface Source {
  scope: Scope
  file: string
  /** For a merged override: the keys it sets. */
  keys?: string[]
}

/** The files a row's effective entry comes from (its own file alone when no override merged in). */
export function contributors(row: Pick<Row, 'scope' | 'file' | 'sources'>): readonly Source[] {
  return row.sources ?? [{ scope: row.scope, file: row.file }]
}

/** Whether any field of the row's effective entry comes from a file inside a repository (any scope but `user`). */
export function repositoryContribution(row: Pick<Row, 'scope' | 'file' | 'sources'>): boolean {
  return contributors(row).some((s) => s.scope !== 'user')
}

export interface Row {
  name: string
  scope: Scope
  file: string
  state: RowState
  /** The effective entry of an active or disabled row (a partial local override merged in); the row's own entry otherwise. */
  entry?: Entry
  /** For shadowed rows: the row that wins. */
  shadowedBy?: { scope: Scope; file: string }
  /** For a winner with a partial local override merged in: the override's file. */
  overriddenBy?: string
  /** For a row turned off by a stronger file's `disable:` list: that file. */
  disabledBy?: { scope: Scope; file: string }
  /**
   * Provenance: every file that contributed a field to the effective entry,
   * the row's own file first, then each merged override (strongest first).
   * Absent on hand-built rows: read it through `contributors(row)`.
   */
  sources?: Source[]
  /** Problems with this row (entry diagnostics and merge notes). */
  diagnostics: Diagnostic[]
  /**
   * The row's `.dsh/mcp.lock` entry as trust sees it (lock/pin.ts `attachLockPins`, attached at the edges that
   * read the lock): part of the trust fingerprint, so a lock edit asks for trust again. Absent: not locked.
   */
  lock?: LockPin
}

/** What the trust fingerprint covers of a locked row's lock entry: package, version, integrity, and the tree's. */
export interface LockPin {
  package: string
  version: string
  integrity: string
  /** Install location → `version integrity` of every package of the resolved tree. */
  packages: Record<string, string>
}

export interface LayerInput {
  layer: LayerFile
  parsed: ParsedFile
}

/** Merge a partial override onto a full entry: maps merge key by key, scalars replace. */
export function mergeOverride(base: Entry, override: Entry): Entry {
  const out: Entry = { ...base }
  for (const [key, value] of Object.entries(override) as [keyof Entry, unknown][]) {
    if (value === undefined) continue
    if (key === 'env' || key === 'headers') out[key] = { ...(base[key] ?? {}), ...(value as Record<string, string>) }
    else (out as Record<string, unknown>)[key] = value
  }
  return out
}

/** Why an override cannot apply to `base` (env on an http server, headers on a stdio one), if it cannot. */
function overrideMisfit(base: Entry, override: Entry): string | undefined {
  const t = transportOf(base)
  if ((t === 'streamable-http' || t === 'sse') && override.env !== undefined)
    return 'the local override sets "env", but the server it overrides is an http server (use "headers")'
  if (t === 'stdio' && override.headers !== undefined)
    return 'the local override sets "headers", but the server it overrides is a stdio server (use "env")'
  return undefined
}

/**
 * Resolve every name across the given layers (any order; ranks decide).
 * Rows come out grouped by name (names in first-seen order, strongest layer
 * first within a name).
 */
export function mergeLayers(inputs: readonly LayerInput[]): Row[] {
  const sorted = [...inputs].sort((a, b) => a.layer.rank - b.layer.rank)
  /** Per name: the strongest file whose `disable:` lists it. */
  const disablers = new Map<string, LayerFile>()
  for (const { layer, parsed } of sorted)
    if (layer.scope !== 'user') for (const n of parsed.disable ?? []) if (!disablers.has(n)) disablers.set(n, layer)
  const byName = new Map<string, { layer: LayerFile; e: ParsedFile['entries'][number] }[]>()
  for (const { layer, parsed } of sorted) {
    for (const e of parsed.entries) {
      const list = byName.get(e.name) ?? []
      if (list.length === 0) byName.set(e.name, list)
      list.push({ layer, e })
    }
  }
  const rows: Row[] = []
  for (const [name, candidates] of byName) {
    const overrides: typeof candidates = []
    let winner: (typeof candidates)[number] | undefined
    for (const c of candidates) {
      if (winner) {
        rows.push({
          name,
          scope: c.layer.scope,
          file: c.layer.file,
          state: 'shadowed',
          ...(c.e.entry ? { entry: c.e.entry } : {}),
          shadowedBy: { scope: winner.layer.scope, file: winner.layer.file },
          sources: [{ scope: c.layer.scope, file: c.layer.file }],
          diagnostics: c.e.diagnostics,
        })
        continue
      }
      if (c.e.entry && c.e.partial && c.layer.scope === 'local') {
        overrides.push(c)
        continue
      }
      winner = c
      let entry = c.e.entry
      const diagnostics = [...c.e.diagnostics]
      const sources: Source[] = [
        { scope: c.layer.scope, file: c.layer.file },
        ...overrides.map((o) => ({ scope: o.layer.scope, file: o.layer.file, keys: Object.keys(o.e.entry ?? {}) })),
      ]
      for (const o of [...overrides].reverse()) {
        if (!entry || !o.e.entry) continue
        const misfit = overrideMisfit(entry, o.e.entry)
        if (misfit) {
          diagnostics.push({
            severity: 'error',
            code: 'conflict',
            message: misfit,
            file: o.layer.file,
            line: o.e.line,
            col: o.e.col,
            path: `servers.${name}`,
            server: name,
          })
          entry = undefined
        } else entry = mergeOverride(entry, o.e.entry)
      }
      const off = disablers.get(name)
      const disabledBy = off && off.rank < c.layer.rank ? { scope: off.scope, file: off.file } : undefined
      const state: RowState = disabledBy
        ? 'disabled'
        : !entry
          ? 'invalid'
          : entry.enabled === false
            ? 'disabled'
            : 'active'
      const overriddenBy = overrides[0]?.layer.file
      rows.push({
        name,
        scope: c.layer.scope,
        file: c.layer.file,
        state,
        ...(entry ? { entry } : {}),
        ...(overriddenBy ? { overriddenBy } : {}),
        ...(disabledBy ? { disabledBy } : {}),
        sources,
        diagnostics,
      })
    }
    if (!winner) {
      for (const o of overrides) {
        const orphan: Diagnostic = {
          severity: 'error',
          code: 'override-orphan',
          message: `"${name}" in the local file has no "command" or "url" and overrides no server of another layer`,
          file: o.layer.file,
          line: o.e.line,
          col: o.e.col,
          path: `servers.${name}`,
          server: name,
        }
        rows.push({
          name,
          scope: o.layer.scope,
          file: o.layer.file,
          state: 'invalid',
          ...(o.e.entry ? { entry: o.e.entry } : {}),
          sources: [{ scope: o.layer.scope, file: o.layer.file }],
          diagnostics: [...o.e.diagnostics, orphan],
        })
      }
    }
  }
  return rows
}

/** The winning row of each name (active, disabled or invalid). */
export function winners(rows: readonly Row[]): Row[] {
  return rows.filter((r) => r.state !== 'shadowed')
}
