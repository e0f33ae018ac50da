/**
 * The npm settings a lock, an outdated check and a prepared install use: the user's own npm config only
 * — `$npm_config_userconfig` (else `~/.npmrc`) and `npm_config_registry` / `npm_config_cache` from the
 * environment — never a project's `.npmrc` (a repository must not redirect where its locked packages
 * come from; integrity pins the bytes in any case). Reads `registry`, `cache`, scoped registries
 * (`@scope:registry`) and per-registry credentials (`//host/:_authToken`, `${VAR}` expanded from the
 * environment); credentials travel to npm's libraries only, never into a message.
 *
 * Contract: `npmOptions(env, home)` never throws (an unreadable file counts as empty) and returns the
 * options object pacote and arborist take (`registry` only when configured, with a trailing slash: npm's
 * libraries default to the public registry otherwise).
 *
 * `loadNpmLibrary(name)` requires npm's CommonJS libraries (pacote, arborist) on first use: never at a start, and
 * also from the CLI bundle, which runs as a script where a dynamic `import()` has no loader.
 *
 * @module
 */
import { readFileSync } from 'node:fs'
import { createRequire } from 'node:module'
import path from 'node:path'

export type NpmOptions = Record<string, string | boolean>

function expand(value: string, env: Readonly<Record<string, string | undefined>>): string {
  return value.replace(/\$\{([A-Za-z_][A-Za-z0-9_]*)\}/g, (_m, n: string) => env[n] ?? '')
}

/** `key=value` lines of an npmrc (`;` and `#` comments, quotes stripped). */
export function readNpmrc(text: string, env: Readonly<Record<string, string | undefined>>): Record<string, string> {
  const out: Record<string, string> = {}
  for (const raw of text.split(/\r?\n/)) {
    const line = raw.trim()
    if (!line || line.startsWith(';') || line.startsWith('#')) continue
    const eq = line.indexOf('=')
    if (eq < 0) continue
    const key = line.slice(0, eq).trim()
    let value = line.slice(eq + 1).trim()
    if (/^".*"$|^'.*'$/.test(value)) value = value.slice(1, -1)
    out[key] = expand(value, env)
  }
  return out
}

export function npmOptions(env: Readonly<Record<string, string | undefined>>, home: string): NpmOptions {
  const file = env.npm_config_userconfig || env.NPM_CONFIG_USERCONFIG || path.join(home, '.npmrc')
  let rc: Record<string, string> = {}
  try {
    rc = readNpmrc(readFileSync(file, 'utf8'), env)
  } catch {
    // no user config
  }
  const opts: Record<string, string | boolean> = {}
  for (const [k, v] of Object.entries(rc))
    if (k === 'registry' || k === 'cache' || k.endsWith(':registry') || k.startsWith('//')) opts[k] = v
  const registry = env.npm_config_registry || env.NPM_CONFIG_REGISTRY || rc.registry
  if (registry) opts.registry = registry.endsWith('/') ? registry : `${registry}/`
  const cache = env.npm_config_cache || env.NPM_CONFIG_CACHE || rc.cache
  if (cache) opts.cache = path.join(cache, '_cacache')
  return opts
}

const requireHere = createRequire(import.meta.url)

/** npm's CommonJS library `name`, loaded on first use. */
export function loadNpmLibrary<T>(name: string): T {
  return requireHere(name) as T
}
