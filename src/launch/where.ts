/**
 * Where the launcher is, for whoever starts a stdio server through it (the
 * host's mounts and doctor's probes).
 *
 * Contract: `launcher()` is `{ node: process.execPath, script }` with
 * `script` the launcher next to this package's other modules: found as
 * `../launch/launcher.js` from the calling module's directory, which holds
 * from `lib/launch/`, `lib/host/`, `lib/doctor/` and the CLI bundle's
 * `lib/cli-bundle/` alike; its `.ts` source when running from `src/`
 * (tests: Node strips the types). Computed once.
 *
 * @module
 */
import { existsSync } from 'node:fs'
import { fileURLToPath } from 'node:url'
import type { Launcher } from './spec.ts'

let found: Launcher | undefined

export function launcher(): Launcher {
  if (found) return found
  const js = fileURLToPath(new URL('../launch/launcher.js', import.meta.url))
  const ts = fileURLToPath(new URL('../launch/launcher.ts', import.meta.url))
  found = { node: process.execPath, script: existsSync(js) ? js : ts }
  return found
}
