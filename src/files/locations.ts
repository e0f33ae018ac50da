/**
 * The user's locations as this process sees them: `$DSH_HOME` and the home
 * directory that bounds project-root discovery.
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
}

export function defaultLocations(env: NodeJS.ProcessEnv = process.env, override?: { dshHome?: string }): Locations {
  const home = os.homedir()
  return { home, dshHome: override?.dshHome ? override.dshHome : dshHome(env, home) }
}
