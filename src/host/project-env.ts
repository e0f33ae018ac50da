/**
 * Variables the host took from the repository's `.env`.
 *
 * The real `dsh` CLI copies `<cwd>/.env` into `process.env` at boot (names
 * the shell did not set) and records each value's layer in a launch
 * environment snapshot it provides as `ctx.get('launchEnvironment')`
 * (`process`, `project-env`, `user-env`). A server's inherited environment
 * is the user's, not the checkout's: a `.env` line `npm_config_registry=…`,
 * `NODE_OPTIONS=…` or `PATH=…` must not reach the user's own servers (which
 * need no trust) or a trusted server after its review.
 *
 * Contract: `projectEnvNames(ctx)` lists the names of `process.env` whose
 * value came from the `project-env` layer and not from the launching
 * process; `[]` when the host provides no snapshot (an SDK host, a test
 * host: nothing was read from a file). Never throws. An entry that sets a
 * name in its own `env` (reviewed and fingerprinted, `${VAR}` included)
 * keeps it: `launch.ts` removes only the others. The same names are
 * `withheld` from `${VAR}` expansion (config/expand.ts): a checkout's `.env`
 * must not choose what a user's own server runs (`command: ${NODE:-node}`)
 * or where a trusted server sends its headers (`url: ${API_URL:-…}`), since
 * neither is reviewed again when the `.env` changes.
 * `createProjectEnv` reads them once (they are fixed at boot) and logs the
 * names, never the values.
 *
 * @module
 */
import type { Context } from '@deepseek-ai/cordis'
import type { Log } from './log.ts'

type Source = 'process' | 'project-env' | 'user-env'
interface Snapshot {
  getFrom(name: string, sources: readonly Source[]): { value: string } | undefined
}

export function projectEnvNames(ctx: Context, env: NodeJS.ProcessEnv = process.env): string[] {
  let snapshot: Snapshot | undefined
  try {
    // Not strict: the host provides it on its root before the root fiber is active, and plugins load in between.
    snapshot = (ctx as unknown as { get(key: string, strict: boolean): unknown }).get('launchEnvironment', false) as
      | Snapshot
      | undefined
  } catch {
    // a host without the slot (or a context that refuses the lookup) read no `.env`
    return []
  }
  if (!snapshot || typeof snapshot.getFrom !== 'function') return []
  const names: string[] = []
  for (const name of Object.keys(env)) {
    try {
      if (snapshot.getFrom(name, ['process']) === undefined && snapshot.getFrom(name, ['project-env']) !== undefined)
        names.push(name)
    } catch {
      // a snapshot that cannot answer for one name says nothing about it
    }
  }
  return names
}

export interface ProjectEnv {
  /** Names `process.env` holds from the repository's `.env`, read at the first call (the host provides them around plugin loading). */
  names(): readonly string[]
  /** The same names, as the set `${VAR}` expansion must treat as unset. */
  withheld(): ReadonlySet<string>
}

export function createProjectEnv(ctx: Context, log: Log): ProjectEnv {
  let names: readonly string[] | undefined
  let withheld: ReadonlySet<string> = new Set()
  const read = (): readonly string[] => {
    if (names) return names
    names = projectEnvNames(ctx)
    withheld = new Set(names)
    if (names.length > 0)
      log.info(
        `the .env of the working directory set %s: MCP servers do not inherit them, and \${VAR} in MCP configs does not read them`,
        names.join(', '),
      )
    return names
  }
  return {
    names: read,
    withheld() {
      read()
      return withheld
    },
  }
}
