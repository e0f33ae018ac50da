/**
 * What the `secret` commands and `trust` share: a secret's scope from the
 * flags, the name rule, setting one value read from a hidden prompt or a
 * pipe, where a backend keeps values (in words), and which servers use
 * which secret.
 *
 * Contract: a value is read only from `cli.stdin` (never argv, never env),
 * handed to the store and dropped; nothing here prints a value. Messages
 * name the secret, the scope and the backend.
 *
 * @module
 */
import { entrySecrets } from '../config/expand.ts'
import type { Row } from '../config/layers.ts'
import type { SecretDeclaration } from '../config/secrets-decl.ts'
import { valuesFile } from '../secrets/files.ts'
import { type Backend, openSecretStore, type SetResult, scopeKey } from '../secrets/store.ts'
import { failure, usage } from './errors.ts'
import type { CliContext } from './program.ts'
import { readSecret } from './prompt.ts'

const NAME = /^[A-Za-z_][A-Za-z0-9_]*$/

export function checkSecretName(name: string): void {
  if (!NAME.test(name))
    throw usage(`"${name.slice(0, 64)}" is not a secret name: letters, digits and _, not starting with a digit`)
}

/** The scope a command acts on: the user's own (`--user`), else the project of `-C`/cwd. */
export function scopeOf(root: string, user: boolean | undefined): { key: string; label: string } {
  return user ? { key: scopeKey(null), label: 'every project (--user)' } : { key: scopeKey(root), label: root }
}

/** Where a backend keeps values, in words. */
export function whereStored(backend: Backend, cli: Pick<CliContext, 'platform' | 'loc'>): string {
  if (backend === 'file') return `the file ${valuesFile(cli.loc.dshHome)} (mode 0600)`
  const kind =
    cli.platform === 'darwin'
      ? 'macOS Keychain'
      : cli.platform === 'win32'
        ? 'Windows Credential Manager'
        : 'Secret Service'
  return `the keychain (${kind})`
}

/** Read one value (hidden prompt on a terminal, else stdin) and store it; prints where it went. */
export async function setSecret(
  cli: CliContext,
  name: string,
  scope: { key: string; label: string },
  prompt = `value of secret ${name} (not shown): `,
): Promise<SetResult> {
  const value = await readSecret(prompt, {
    input: cli.stdin as NodeJS.ReadStream,
    output: cli.stderr,
  })
  if (value === undefined) throw failure(`secret ${name}: cancelled, nothing stored`)
  if (value === '') throw failure(`secret ${name}: the value is empty, nothing stored`)
  let result: SetResult
  try {
    result = await openSecretStore({ dshHome: cli.loc.dshHome, env: cli.env }).set(scope.key, name, value)
  } catch (err) {
    throw failure(`secret ${name}: ${(err as Error).message}`)
  }
  const where = whereStored(result.backend, cli)
  cli.out.err(`secret ${name} set for ${scope.label}, stored in ${where}`)
  if (result.fallback) cli.out.err(`  (no keychain here: ${result.fallback})`)
  return result
}

/** Secret names each row refers to, by server name (rows with an entry). */
export function secretUses(rows: readonly Row[]): Map<string, string[]> {
  const uses = new Map<string, string[]>()
  for (const row of rows) {
    if (!row.entry || row.state === 'shadowed') continue
    for (const name of entrySecrets(row.entry)) uses.set(name, [...(uses.get(name) ?? []), row.name])
  }
  return uses
}

/**
 * After `trust`: the secrets the just-trusted rows refer to that are not set.
 * On a terminal, offer to set each (its declared description shown); else
 * print the command that sets each. Never reads a stored value.
 */
export async function offerMissingSecrets(
  cli: CliContext,
  root: string,
  rows: readonly Row[],
  declared: readonly SecretDeclaration[],
): Promise<void> {
  const source = openSecretStore({ dshHome: cli.loc.dshHome }).source(root)
  const uses = secretUses(rows)
  const missing = [...uses.keys()].filter((n) => !source.has(n))
  if (missing.length === 0) return
  const scope = { key: scopeKey(root), label: root }
  for (const name of missing) {
    const about = declared.find((d) => d.name === name)?.description
    const line = `${uses.get(name)!.join(', ')} needs secret ${name}${about ? ` (${about})` : ''}, which is not set`
    if (!cli.interactive) {
      cli.out.err(`${line}: dsh-mcp secret set ${name}`)
      continue
    }
    const { confirm } = await import('./prompt.ts')
    if (await confirm(`${line}. Set it now?`, { input: cli.stdin, output: cli.stderr }))
      await setSecret(cli, name, scope)
    else cli.out.err(`  later: dsh-mcp secret set ${name}`)
  }
}
