/**
 * The repository files a row names directly, hashed for a signed team
 * approval (trust/signed.ts `RowFiles`; docs/guide/trust.md "Teams").
 *
 * Contract: `rowFiles(row, root)` takes a stdio row's `command` when written
 * as a path and every `args` value, each resolved as the launch does —
 * relative to the row's `cwd` (itself relative to `root`), else `root` — and
 * keeps those that are regular files (after links) inside the repository
 * holding `root` (trust/team.ts `repositoryRootOf`; `root` itself outside
 * any). Each is keyed by its path relative to `root` (`/`-separated) and
 * valued by the sha256 (hex) of its bytes. A value with `${…}` is left out
 * (it names no fixed file), as is a flag (`-x`, `--x=…`). A file over 64 MiB
 * is keyed with `too-large` hashed with its size, so it never matches a
 * signed hash by accident. Undefined when the row names no such file. Never
 * throws; files those files import are not covered.
 *
 * @module
 */
import { createHash } from 'node:crypto'
import { readFileSync, realpathSync, statSync } from 'node:fs'
import path from 'node:path'
import type { Row } from '../config/layers.ts'
import type { RowFiles } from './signed.ts'
import { repositoryRootOf } from './team.ts'

const MAX_BYTES = 64 * 1024 * 1024
const MAX_FILES = 64

const inside = (root: string, p: string) => {
  const rel = path.relative(root, p)
  return rel !== '' && !rel.startsWith('..') && !path.isAbsolute(rel)
}

function hashOf(file: string): string | undefined {
  try {
    const st = statSync(file)
    if (!st.isFile()) return undefined
    if (st.size > MAX_BYTES) return createHash('sha256').update(`too-large:${st.size}`).digest('hex')
    return createHash('sha256').update(readFileSync(file)).digest('hex')
  } catch {
    return undefined
  }
}

export function rowFiles(row: Pick<Row, 'entry'>, root: string): RowFiles | undefined {
  const e = row.entry as { transport?: unknown; command?: unknown; args?: unknown; cwd?: unknown } | undefined
  if (!e || typeof e.command !== 'string') return undefined
  let real: string
  try {
    real = realpathSync(root)
  } catch {
    return undefined
  }
  const repo = repositoryRootOf(real) ?? real
  const cwd = typeof e.cwd === 'string' && !e.cwd.includes('${') ? path.resolve(real, e.cwd) : real
  const named = [
    ...(e.command.includes('/') ? [e.command] : []),
    ...(Array.isArray(e.args) ? e.args.filter((a): a is string => typeof a === 'string') : []),
  ].filter((v) => v !== '' && !v.includes('${') && !v.startsWith('-'))
  const out: Record<string, string> = {}
  for (const v of named) {
    if (Object.keys(out).length >= MAX_FILES) break
    const abs = path.resolve(cwd, v)
    let target: string
    try {
      target = realpathSync(abs)
    } catch {
      continue
    }
    if (!inside(repo, target) || !inside(repo, abs)) continue
    const hash = hashOf(target)
    if (hash === undefined) continue
    out[path.relative(real, abs).split(path.sep).join('/')] = hash
  }
  return Object.keys(out).length > 0 ? out : undefined
}
