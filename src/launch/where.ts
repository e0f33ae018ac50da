/**
 * Where the launcher and the watchdog are, for whoever starts them (the host's mounts and its watchdog).
 *
 * Contract: `launcher()` is `{ node: process.execPath, script }` with
 * `script` the launcher next to this package's other modules: found as
 * `../launch/launcher.js` from the calling module's directory, which holds
 * from `lib/launch/`, `lib/host/`, `lib/doctor/` and the CLI bundle's
 * `lib/cli-bundle/` alike; its `.ts` source when running from `src/`
 * (tests: Node strips the types). `watchdogScript()` is `watchdog.js` (or
 * `.ts`) found the same way. Computed once.
 *
 * @module
 */
import { existsSync } from 'node:fs'
import { fileURLToPath } from 'node:url'
import type { Launcher } from './spec.ts'

let found: Launcher | undefined
let dog: string | undefined

function script(name: string): string {
  const js = fileURLToPath(new URL(`../launch/${name}.js`, import.meta.url))
  return existsSync(js) ? js : fileURLToPath(new URL(`../launch/${name}.ts`, import.meta.url))
}

export function launcher(): Launcher {
  found ??= { node: process.execPath, script: script('launcher') }
  return found
}

export function watchdogScript(): string {
  dog ??= script('watchdog')
  return dog
}
