/**
 * A parsed document's value → the file's entries, each problem placed at its
 * `file:line:col`: the top-level keys (the other format's root key named as
 * not read here), the friendly format's `secrets:` declarations, the server
 * names, and every entry judged alone (`checkEntry`).
 *
 * Contract: pure and never throws; `parse.ts` calls it once the document has
 * passed every size, depth and alias bound. One scope (an entry, or the top
 * level) reports at most `MAX_PROBLEMS_SHOWN` problems and counts the rest in
 * one closing problem, so neither the positions computed nor the lines logged
 * grow with a hostile file. An invalid entry is dropped alone.
 *
 * @module
 */
import type { Document } from 'yaml'
import { type Diagnostic, formatPath } from './diagnostics.ts'
import { checkEntry, type Problem, unknownKeyProblem } from './entry.ts'
import { isRecord } from './guards.ts'
import type { FileFormat, ParsedEntry, ParsedFile, ParseOptions } from './parse.ts'
import { FRIENDLY_ROOT_KEYS, MCP_SERVERS_ROOT_KEYS } from './schema.ts'
import { readFileKeys } from './file-keys.ts'
import { readSecretDeclarations } from './secrets-decl.ts'
import { readTrustedSigners, type TrustedSigner } from './signers.ts'
import { serverNameRefusal } from './server-name.ts'
import { kindOf } from './value-kind.ts'
import { type At, type Inspection, positionOf } from './yaml-doc.ts'

/** The top-level key that lists a format's servers. */
export function rootKeyOf(format: FileFormat): 'servers' | 'mcpServers' {
  return format === 'friendly' ? 'servers' : 'mcpServers'
}

/**
 * Problems one scope (a server entry, or the file's top level) reports in full. A hostile file can hold
 * 45,000 unknown keys; past this many, the rest are counted in one closing problem, so neither the
 * positions computed nor the lines logged grow with the file.
 */
export const MAX_PROBLEMS_SHOWN = 20

type Counted = Pick<Problem, 'severity' | 'code' | 'message'>

/** The first `MAX_PROBLEMS_SHOWN` problems (errors before warnings when some must be left out, the order kept within each), and `more` counting the rest. */
function capProblems(problems: readonly Problem[]): { shown: readonly Problem[]; more?: Counted } {
  if (problems.length <= MAX_PROBLEMS_SHOWN) return { shown: problems }
  const ordered = [...problems.filter((p) => p.severity === 'error'), ...problems.filter((p) => p.severity !== 'error')]
  const rest = ordered.slice(MAX_PROBLEMS_SHOWN)
  const errors = rest.filter((p) => p.severity === 'error').length
  const kinds =
    errors === 0
      ? `${rest.length} warnings`
      : errors === rest.length
        ? `${rest.length} errors`
        : `${errors} errors, ${rest.length - errors} warnings`
  return {
    shown: ordered.slice(0, MAX_PROBLEMS_SHOWN),
    more: {
      severity: rest[0]!.severity,
      code: rest[0]!.code,
      message: `${rest.length} more problems not listed (${kinds})`,
    },
  }
}

/** The entries and diagnostics of a document that passed parse.ts's bounds (`value` is its JS form). */
export function readDocument(
  doc: Document.Parsed,
  value: unknown,
  at: At,
  scoped: Inspection['entries'],
  opts: ParseOptions,
): ParsedFile {
  const { file, format } = opts
  const rootKey = rootKeyOf(format)
  const rootKeys = format === 'friendly' ? FRIENDLY_ROOT_KEYS : MCP_SERVERS_ROOT_KEYS
  const diagnostics: Diagnostic[] = []
  const base = { file, line: 1, col: 1 }
  if (!isRecord(value)) {
    const expected = format === 'friendly' ? 'a mapping with "servers:"' : 'a JSON object with "mcpServers"'
    return {
      file,
      format,
      ok: false,
      entries: [],
      diagnostics: [
        {
          ...base,
          severity: 'error',
          code: 'bad-root',
          message: `expected ${expected}, got ${kindOf(value)}`,
          path: '',
        },
      ],
    }
  }
  const root = value
  const posOf = (path: (string | number)[], atKey = false) => positionOf(doc, path, atKey, at)
  const other = format === 'friendly' ? 'mcpServers' : 'servers'
  const strays = Object.keys(root).filter((key) => !(rootKeys as readonly string[]).includes(key))
  const top = capProblems(
    strays.map(
      (key): Problem =>
        key === other
          ? {
              severity: 'warning',
              code: 'unknown-key',
              message: `"${key}" is not read in this file (ignored); this file lists servers under "${rootKey}"`,
              path: [key],
              atKey: true,
            }
          : unknownKeyProblem(key, rootKeys, 'the top level'),
    ),
  )
  for (const p of top.shown)
    diagnostics.push({
      file,
      ...posOf(p.path, true),
      severity: p.severity,
      code: p.code,
      message: p.message,
      path: formatPath(p.path),
    })
  if (top.more) diagnostics.push({ ...base, ...top.more, message: `${top.more.message} at the top level`, path: '' })
  const declared = format === 'friendly' ? readSecretDeclarations(root.secrets) : undefined
  for (const p of declared?.problems ?? [])
    diagnostics.push({
      file,
      ...posOf(p.path, true),
      severity: 'error',
      code: 'bad-value',
      message: p.message,
      path: formatPath(p.path),
    })
  const signers = userOnlySigners(root, opts, diagnostics, posOf)
  const keys = format === 'friendly' ? readFileKeys(root, { userFile: opts.userFile === true }) : undefined
  for (const p of keys?.problems ?? [])
    diagnostics.push({
      file,
      ...posOf(p.path, p.path.length === 1),
      severity: p.severity,
      code: p.severity === 'error' ? 'bad-value' : 'unknown-key',
      message: p.message,
      path: formatPath(p.path),
    })
  const withSecrets = <T extends ParsedFile>(parsed: T): T => ({
    ...parsed,
    ...(declared?.secrets.length ? { secrets: declared.secrets } : {}),
    ...(signers ? { trustedSigners: signers } : {}),
    ...(keys?.inherit !== undefined ? { inherit: keys.inherit } : {}),
    ...(keys?.disable?.length ? { disable: keys.disable } : {}),
  })
  const servers = root[rootKey]
  if (servers === undefined || servers === null) {
    if (servers === undefined && !signers)
      diagnostics.push({
        ...base,
        severity: 'warning',
        code: 'bad-root',
        message: `no "${rootKey}" key: this file defines no servers`,
        path: '',
      })
    return withSecrets({ file, format, ok: true, entries: [], diagnostics })
  }
  if (!isRecord(servers)) {
    diagnostics.push({
      file,
      ...posOf([rootKey]),
      severity: 'error',
      code: 'bad-root',
      message: `"${rootKey}" must be a mapping of server names to entries, got ${kindOf(servers)}`,
      path: rootKey,
    })
    return { file, format, ok: false, entries: [], diagnostics }
  }
  const entries: ParsedEntry[] = []
  for (const [name, raw] of Object.entries(servers as Record<string, unknown>)) {
    const keyPos = posOf([rootKey, name], true)
    const entryDiags: Diagnostic[] = []
    const push = (p: Problem) => {
      const full = [rootKey, name, ...p.path]
      entryDiags.push({
        file,
        ...posOf(full, p.atKey),
        severity: p.severity,
        code: p.code,
        message: p.message,
        path: formatPath(full),
        server: name,
      })
    }
    const refusal = serverNameRefusal(name)
    if (refusal !== undefined) {
      push({
        severity: 'error',
        code: 'bad-name',
        message: refusal,
        path: [],
        atKey: true,
      })
      entries.push({ name, partial: false, ...keyPos, diagnostics: entryDiags })
      continue
    }
    const early = scoped.get(name)
    if (early) {
      entryDiags.push({
        file,
        line: early.line,
        col: early.col,
        severity: 'error',
        code: early.code,
        message: early.message,
        path: formatPath(early.segments),
        server: name,
      })
      entries.push({ name, partial: false, ...keyPos, diagnostics: entryDiags })
      continue
    }
    const checked = checkEntry(raw, opts)
    const capped = capProblems(checked.problems)
    capped.shown.forEach(push)
    if (capped.more)
      entryDiags.push({
        file,
        ...keyPos,
        ...capped.more,
        message: `${capped.more.message} in this entry`,
        path: formatPath([rootKey, name]),
        server: name,
      })
    entries.push({
      name,
      ...(checked.entry ? { entry: checked.entry } : {}),
      partial: checked.partial,
      ...keyPos,
      diagnostics: entryDiags,
    })
  }
  return withSecrets({ file, format, ok: true, entries, diagnostics })
}

/**
 * `trustedSigners:` of the user's own file (config/signers.ts); in any other file a warning and nothing read:
 * a repository or local file can never add a signer.
 */
function userOnlySigners(
  root: Record<string, unknown>,
  opts: ParseOptions,
  diagnostics: Diagnostic[],
  posOf: (path: (string | number)[], atKey?: boolean) => { line: number; col: number },
): TrustedSigner[] | undefined {
  if (opts.format !== 'friendly' || root.trustedSigners === undefined) return undefined
  if (!opts.userFile) {
    diagnostics.push({
      file: opts.file,
      ...posOf(['trustedSigners'], true),
      severity: 'warning',
      code: 'user-only',
      message:
        '"trustedSigners" is read only from your own file ($DSH_HOME/mcp.yml): a repository or local file can never add a signer (ignored)',
      path: 'trustedSigners',
    })
    return undefined
  }
  const read = readTrustedSigners(root.trustedSigners)
  for (const p of read.problems)
    diagnostics.push({
      file: opts.file,
      ...posOf(p.path, true),
      severity: 'error',
      code: 'bad-value',
      message: p.message,
      path: formatPath(p.path),
    })
  return read.signers
}
