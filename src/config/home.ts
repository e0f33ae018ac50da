/**
 * Where the user layer, the trust store and status files live: `$DSH_HOME`
 * (default `~/.dsh`).
 *
 * Contract: pure (the environment and home directory are passed in), and
 * imports only `node:path`, so light callers — the CLI's command tree — can
 * use it without loading the config parser (zod, yaml).
 *
 * @module
 */
import path from 'node:path'

/** `$DSH_HOME` resolved, else `<homedir>/.dsh`. */
export function dshHome(env: Readonly<Record<string, string | undefined>>, homedir: string): string {
  return env.DSH_HOME ? path.resolve(env.DSH_HOME) : path.join(homedir, '.dsh')
}
