/**
 * What a stdio server really runs, for the trust review and `get`: the
 * directory it starts in and the file its `command` resolves to — never the
 * text as written when that text would mislead (`cwd: ${VAR:-/etc}` shown
 * as `<root>/${VAR:-/etc}` while it runs in `/etc`).
 *
 * Contract: `launchView(entry, { base, env, checkouts })`:
 * - `cwd`: the expanded directory, resolved against `base` (the project
 *   root, or the user file's directory). A `${VAR}` is expanded from `env`
 *   (the environment the review may read: the CLI's own, as the host expands
 *   it from its own), and the line says which variables it came from; a
 *   variable unset here (no default) gives "depends on $VAR" instead of a
 *   directory. A secret-shaped variable is never expanded for display.
 * - `command`: a command with a `/` is the file it names, resolved against
 *   the directory; a bare name is resolved as the launcher does
 *   (launch/resolve.ts: absolute PATH entries only, the entry's own `PATH`
 *   when it sets one), shown as `name → /abs/path`; one that resolves
 *   inside a project checkout (`checkouts`) is shown as refused, with the
 *   file and why (`refused`: the line `list` shows); one not found says so.
 * Never throws; values other than paths and variable names never print.
 *
 * @module
 */
import path from 'node:path'
import { expandString, templateVariables } from '../config/expand.ts'
import { isSecretName } from '../config/redact-shapes.ts'
import type { Entry } from '../config/schema.ts'
import { resolveCommand } from '../launch/resolve.ts'

export interface LaunchView {
  cwd: string
  command: string
  /** Set when the command resolves into a checkout: why the launcher refuses it (one `list` issue). */
  refused?: string
}

export interface LaunchViewOptions {
  base: string
  env: Readonly<Record<string, string | undefined>>
  checkouts: readonly string[]
}

/** `template` expanded from `env`, or why it cannot be shown. */
function expanded(
  template: string,
  env: LaunchViewOptions['env'],
): { value: string; from: string[] } | { why: string } {
  const vars = templateVariables(template)
  if (vars.length === 0) return { value: template, from: [] }
  const names = [...new Set(vars.map((v) => v.name))]
  const secret = names.filter((n) => isSecretName(n))
  if (secret.length > 0) return { why: `depends on ${secret.map((n) => `$${n}`).join(' ')} (not shown: secret-shaped)` }
  const r = expandString(template, env)
  if ('value' in r) return { value: r.value, from: names }
  if ('missing' in r) return { why: `depends on ${r.missing.map((n) => `$${n}`).join(' ')} (unset here)` }
  return { why: `invalid: ${r.message}` }
}

export function launchView(e: Pick<Entry, 'command' | 'cwd' | 'env'>, opts: LaunchViewOptions): LaunchView | undefined {
  if (e.command === undefined) return undefined
  let dir: string | undefined
  let cwd: string
  const written = e.cwd ?? '.'
  const c = expanded(written, opts.env)
  if ('why' in c) cwd = `${c.why}: "${written}"`
  else {
    dir = path.resolve(opts.base, c.value)
    cwd = c.from.length ? `${dir}  (from "${written}", ${c.from.map((n) => `$${n}`).join(' ')} as set here)` : dir
  }
  let command: string
  const cmd = expanded(e.command, opts.env)
  if ('why' in cmd) command = `${e.command}: ${cmd.why}`
  else if (cmd.value.includes('/')) {
    command = dir ? path.resolve(dir, cmd.value) : cmd.value
  } else {
    const ownPath = e.env?.PATH !== undefined ? expanded(e.env.PATH, opts.env) : undefined
    const PATH = ownPath && 'value' in ownPath ? ownPath.value : opts.env.PATH
    const r = resolveCommand(cmd.value, { PATH }, dir, opts.checkouts)
    if (!('code' in r)) command = `${cmd.value} → ${r.path}`
    else if (r.code === 'EINSIDE') {
      command = `${cmd.value} → ${r.path}: REFUSED, inside the project checkout (a PATH entry points into the repository)`
      return { cwd, command, refused: `${cmd.value} resolves into the checkout (${r.path}): refused at start` }
    } else
      command = `${cmd.value}: ${r.code === 'EACCES' ? 'found on PATH here, not executable' : 'not found on PATH here'}`
  }
  return { cwd, command }
}
