/**
 * Where the plugin writes a project's status files and where `dsh-mcp status`
 * reads them: one file per host process,
 * `$DSH_HOME/mcp-status/<sha256(canonical root) hex, first 16>.<host pid>.json`,
 * so concurrent hosts of one project (a `dsh web` and a headless run) each
 * report; `<hash>.json` (no pid) is the name hosts before per-host files wrote.
 *
 * Contract: pure (no file system access); `canonicalRoot` must already be
 * canonical (`canonicalRoot()` of src/trust/store.ts), so a symlinked
 * checkout maps to one set of files. `statusFilePath` defaults `pid` to this
 * process (the file the host in this process writes); `statusFileOf` says
 * whether a directory entry is one of a root's status files, and whose.
 *
 * @module
 */
import path from 'node:path'
import { sha256 } from '../config/fingerprint.ts'

export function statusDir(dshHome: string): string {
  return path.join(dshHome, 'mcp-status')
}

function prefixOf(canonicalRoot: string): string {
  return sha256(canonicalRoot).slice(0, 16)
}

export function statusFilePath(dshHome: string, canonicalRoot: string, pid: number = process.pid): string {
  return path.join(statusDir(dshHome), `${prefixOf(canonicalRoot)}.${pid}.json`)
}

/** How a root's files are named, for a message (`<hash>.<pid>.json`). */
export function statusFilePattern(dshHome: string, canonicalRoot: string): string {
  return path.join(statusDir(dshHome), `${prefixOf(canonicalRoot)}.<pid>.json`)
}

/** A directory entry's owner when it is one of `canonicalRoot`'s status files (`pid: null`: the older name), else undefined. */
export function statusFileOf(name: string, canonicalRoot: string): { pid: number | null } | undefined {
  const prefix = prefixOf(canonicalRoot)
  if (name === `${prefix}.json`) return { pid: null }
  const m = /^([0-9a-f]{16})\.([1-9][0-9]{0,9})\.json$/.exec(name)
  return m && m[1] === prefix ? { pid: Number(m[2]) } : undefined
}
