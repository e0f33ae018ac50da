/**
 * The user's locations as an environment names them: `$DSH_HOME`, the home
 * directory that bounds project-root discovery (`$HOME`, else the OS's
 * answer; `%USERPROFILE%` on Windows), and that environment itself (the
 * guard's allow list, `$DSH_MCP_SAFE_ROOTS`, is read from it).
 *
 * Contract: imports only node builtins and the pure `config/home.ts`, so the
 * CLI's command tree builds a command's context without loading the config
 * parser (zod, yaml) — `dsh-mcp --version` and `--help` stay near bare-node
 * cost.
 *
 * @module
 */
import os from 'node:os'
import { dshHome } from '../config/home.ts'

export interface Locations {
  /** `$DSH_HOME` (default `~/.dsh`). */
  dshHome: string
  /** The user's home directory (root discovery never goes above it). */
  home: string
  /** The environment these were read from; absent: none (no allow list from the environment). */
  env?: Readonly<Record<string, string | undefined>>
}

export function defaultLocations(
  env: Readonly<Record<string, string | undefined>>,
  override?: { dshHome?: string },
): Locations {
  const home = (process.platform === 'win32' ? env.USERPROFILE : env.HOME) || os.homedir()
  return { home, dshHome: override?.dshHome ? override.dshHome : dshHome(env, home), env }
}
