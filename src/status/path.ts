/**
 * Where the plugin writes a project's status file and where `dsh-mcp status`
 * reads it: `$DSH_HOME/mcp-status/<sha256(canonical root) hex, first 16>.json`.
 *
 * Contract: pure (no file system access); `canonicalRoot` must already be
 * canonical (`canonicalRoot()` of src/trust/store.ts), so a symlinked
 * checkout maps to one file.
 *
 * @module
 */
import path from 'node:path'
import { sha256 } from '../config/fingerprint.ts'

export function statusFilePath(dshHome: string, canonicalRoot: string): string {
  return path.join(dshHome, 'mcp-status', `${sha256(canonicalRoot).slice(0, 16)}.json`)
}
