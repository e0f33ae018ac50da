/**
 * Writing a project's committed `.dsh/mcp.trust` (trust/team.ts reads it).
 *
 * Contract: `writeTeamTrust(root, change)` refuses a link (or anything but a
 * regular file) at the path, reads the current file (a refused or
 * undecodable one is an error, nothing written), applies `change` and
 * replaces the file through files/atomic.ts (0644: it is committed; stable
 * order through trust/signed.ts `encodeTeamTrust`).
 *
 * @module
 */
import { lstatSync, mkdirSync } from 'node:fs'
import path from 'node:path'
import { replaceFile } from '../files/atomic.ts'
import { encodeTeamTrust, type TeamTrustFile } from './signed.ts'
import { readTeamTrust, teamTrustPath } from './team.ts'

export function writeTeamTrust(root: string, change: (file: TeamTrustFile) => void): void {
  const file = teamTrustPath(root)
  try {
    const st = lstatSync(file)
    if (!st.isFile())
      throw new Error(`refusing to write ${file}: it is ${st.isSymbolicLink() ? 'a link' : 'not a file'}`)
  } catch (err) {
    if ((err as NodeJS.ErrnoException).code !== 'ENOENT') throw err
  }
  const current = readTeamTrust(root)
  if (current.problem) throw new Error(`refusing to write ${file}: ${current.problem}`)
  change(current.file)
  mkdirSync(path.dirname(file), { recursive: true })
  replaceFile(file, encodeTeamTrust(current.file), { mode: 0o644 })
}
