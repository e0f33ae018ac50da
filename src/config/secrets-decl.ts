// biome-ignore-all lint/suspicious/noTemplateCurlyInString: the ${secret:NAME} reference syntax, described
/**
 * The top-level `secrets:` map of the friendly format: which secrets a
 * project's servers need, declared in the committed file and never valued
 * there (`NAME: { description, required }`). Values live in the user's
 * secret store (src/secrets/) and are referred to as `${secret:NAME}`.
 *
 * Contract: pure. `SecretsMapSchema` is the zod schema (in the JSON Schema
 * through schema.ts `FriendlyFileSchema`); `readSecretDeclarations(value)`
 * turns the raw `secrets:` value into declarations and problems with field
 * paths — a declaration that holds anything but `description` and
 * `required` (a pasted `value:`) is an error that names the key, never the
 * value. `required` defaults to true: a required secret that is not set is
 * flagged by `secret list` and offered by `trust`; a server that refers to any
 * unset secret is skipped either way.
 *
 * @module
 */
import * as z from 'zod/mini'
import { isRecord } from './guards.ts'

export const SECRET_NAME_PATTERN = /^[A-Za-z_][A-Za-z0-9_]*$/

export const SecretDeclSchema = z.strictObject({
  description: z
    .optional(z.string())
    .check(z.describe('What the secret is and where to get it (shown by dsh-mcp secret set).')),
  required: z.optional(z.boolean()).check(z.describe('Whether the project needs it set (default true).')),
})

export const SecretsMapSchema = z
  .record(z.string().check(z.regex(SECRET_NAME_PATTERN)), SecretDeclSchema)
  .check(
    z.describe(
      'Secrets the servers refer to as ${secret:NAME}: declared here, never valued here (dsh-mcp secret set NAME stores a value).',
    ),
  )

export interface SecretDeclaration {
  name: string
  description?: string
  required: boolean
}

export interface DeclarationProblem {
  path: (string | number)[]
  message: string
}

export function readSecretDeclarations(value: unknown): {
  secrets: SecretDeclaration[]
  problems: DeclarationProblem[]
} {
  const secrets: SecretDeclaration[] = []
  const problems: DeclarationProblem[] = []
  if (value === undefined || value === null) return { secrets, problems }
  if (!isRecord(value)) {
    problems.push({
      path: ['secrets'],
      message: '"secrets" must be a mapping of secret names to { description, required }',
    })
    return { secrets, problems }
  }
  for (const [name, raw] of Object.entries(value)) {
    if (!SECRET_NAME_PATTERN.test(name)) {
      problems.push({
        path: ['secrets', name],
        message: 'a secret name is letters, digits and _, not starting with a digit',
      })
      continue
    }
    const decl = raw === null ? {} : raw
    if (!isRecord(decl)) {
      problems.push({
        path: ['secrets', name],
        message: 'must be a mapping { description, required } (a value never goes here)',
      })
      continue
    }
    const strays = Object.keys(decl).filter((k) => k !== 'description' && k !== 'required')
    for (const k of strays)
      problems.push({
        path: ['secrets', name, k],
        message: `"${k}" is not a secret declaration key (description, required): a value never goes in this file; run dsh-mcp secret set ${name}`,
      })
    if (decl.description !== undefined && typeof decl.description !== 'string')
      problems.push({ path: ['secrets', name, 'description'], message: 'must be a string' })
    if (decl.required !== undefined && typeof decl.required !== 'boolean')
      problems.push({ path: ['secrets', name, 'required'], message: 'must be true or false' })
    if (strays.length) continue
    secrets.push({
      name,
      ...(typeof decl.description === 'string' ? { description: decl.description } : {}),
      required: decl.required !== false,
    })
  }
  return { secrets, problems }
}
