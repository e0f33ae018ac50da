/**
 * The file-level keys of the friendly format beside `servers:` (the field
 * table's companion for whole files: fields.ts re-exports it): `inherit` and
 * `disable`, the monorepo controls (docs/guide/monorepos.md).
 *
 * Contract: pure, never throws. `FILE_KEYS` is the one list of these keys
 * (docs line, value type); schema.ts builds their zod shapes (and so the
 * JSON Schema) from it, with no zod here (the CLI's command tree may read it). `readFileKeys(value)`
 * reads them from a document's top level: a well-formed value is returned, a
 * bad one is a problem at its path (the key ignored, the rest of the file
 * kept). In the user's file both keys are warnings and ignored: the user
 * layer is below every project and inherits from nothing.
 *
 * @module
 */
import { kindOf } from './value-kind.ts'
import { serverNameRefusal } from './server-name.ts'

export interface FileKeySpec {
  /** One line for the guide and the JSON Schema. */
  docs: string
  /** Its value type, as the guide shows it. */
  type: string
}

export const FILE_KEYS = {
  inherit: {
    docs: 'false: this project does not inherit servers from project files of the directories above it (up to the repository root); default true',
    type: 'boolean',
  },
  disable: {
    docs: 'names of servers from weaker layers (a parent directory of the repository, the user file) this project turns off without redefining them',
    type: 'list of server names',
  },
} as const satisfies Record<string, FileKeySpec>

export type FileKeyName = keyof typeof FILE_KEYS
export const FILE_KEY_NAMES = Object.keys(FILE_KEYS) as FileKeyName[]

export interface FileKeyProblem {
  severity: 'error' | 'warning'
  path: (string | number)[]
  message: string
}

export interface FileKeys {
  inherit?: boolean
  disable?: string[]
  problems: FileKeyProblem[]
}

/** Read `inherit` and `disable` from a document's top level (`userFile`: the user's own file, where both are ignored). */
export function readFileKeys(top: Record<string, unknown>, opts: { userFile?: boolean } = {}): FileKeys {
  const out: FileKeys = { problems: [] }
  if (opts.userFile) {
    for (const key of FILE_KEY_NAMES)
      if (top[key] !== undefined)
        out.problems.push({
          severity: 'warning',
          path: [key],
          message: `"${key}" is ignored in the user file: it belongs in a project's .dsh/mcp.yml or .dsh/mcp.local.yml`,
        })
    return out
  }
  const inherit = top.inherit
  if (inherit !== undefined) {
    if (typeof inherit === 'boolean') out.inherit = inherit
    else
      out.problems.push({
        severity: 'error',
        path: ['inherit'],
        message: `"inherit" must be true or false, got ${kindOf(inherit)} (ignored: the project inherits)`,
      })
  }
  const disable = top.disable
  if (disable !== undefined && disable !== null) {
    if (!Array.isArray(disable)) {
      out.problems.push({
        severity: 'error',
        path: ['disable'],
        message: `"disable" must be a list of server names, got ${kindOf(disable)} (ignored)`,
      })
      return out
    }
    const names: string[] = []
    disable.forEach((name, i) => {
      const refusal = typeof name === 'string' ? serverNameRefusal(name) : `expected a server name, got ${kindOf(name)}`
      if (refusal === undefined) names.push(name as string)
      else out.problems.push({ severity: 'error', path: ['disable', i], message: `${refusal} (ignored)` })
    })
    out.disable = [...new Set(names)]
  }
  return out
}
