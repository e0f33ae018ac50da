/**
 * Parsing a config file's text into entries, keeping source positions.
 *
 * Contract: `parseConfigText` is pure and never throws. Every problem becomes
 * a diagnostic with `file:line:col` and a field path; an invalid entry is
 * dropped alone while the file's other entries survive. A file whose text
 * cannot be read as a document at all yields `ok: false` (the runtime then
 * keeps that file's last good generation). YAML and JSON are read by one
 * parser (JSON is YAML's flow subset), with duplicate keys, custom tags and
 * alias expansion refused or bounded so a hostile file cannot exhaust memory.
 * Once the document passes those bounds, read-document.ts reads its entries.
 *
 * @module
 */
import { type Document, isMap, LineCounter, parseDocument, visit } from 'yaml'
import { type Diagnostic, formatPath } from './diagnostics.ts'
import type { CheckOptions } from './entry.ts'
import { checkJsonSyntax } from './json-check.ts'
import { exceedsValues, scanStructure } from './structure-scan.ts'
import { inspectDocument, positionAt } from './yaml-doc.ts'
import { readDocument, rootKeyOf } from './read-document.ts'
import type { Entry } from './schema.ts'
import type { SecretDeclaration } from './secrets-decl.ts'
import type { TrustedSigner } from './signers.ts'

/** `friendly`: `servers:` (the .yml files); `mcpServers`: the JSON dialect (`.dsh/mcp.json`, `.mcp.json`). */
export type FileFormat = 'friendly' | 'mcpServers'

export const MAX_CONFIG_BYTES = 1024 * 1024
/** Alias nodes one file may hold, and expansions of one anchor (the parser's `maxAliasCount`). */
const MAX_ALIAS_COUNT = 100
/** Servers one file may define: each is a process or a connection (and its tools go to the model); far above any real config. */
export const MAX_SERVERS = 256
const MAX_DEPTH = 64
/** Flow nesting refused before parsing (deeper than the entry-level limit, far below the parser's stack). */
const MAX_FLOW_DEPTH = 256
/**
 * Structure marks (brackets, commas, `:`, `- `) one file may hold before it is parsed: far above any real
 * config (256 servers of ~200 values each). At the limit the costliest shape measured (nested flow lists)
 * takes the parser about 1.5 s of the host's event loop, within the 3 s a hostile file may cost
 * (docs/guide/reliability.md, "Hostile input").
 */
export const MAX_VALUES = 50_000

export interface ParsedEntry {
  name: string
  /** The normalized entry; absent when the entry has errors. */
  entry?: Entry
  partial: boolean
  /** 1-based position of the entry's key. */
  line: number
  col: number
  diagnostics: Diagnostic[]
}

/** A present file this user must not be configured by (set at the file-reading edge, `files/guard.ts`). */
export interface FileRefusal {
  reason: 'ownership' | 'symlink-out'
  /** One line: what is wrong and how to allow or repair it. Never file content. */
  message: string
}

export interface ParsedFile {
  file: string
  format: FileFormat
  /** false: the document itself is unreadable (syntax error, bad root, too large…): no entries. */
  ok: boolean
  entries: ParsedEntry[]
  /** File-level diagnostics (entry diagnostics live on the entries). */
  diagnostics: Diagnostic[]
  /** The top-level `secrets:` declarations (friendly format; config/secrets-decl.ts). */
  secrets?: SecretDeclaration[]
  /** `inherit: false` (friendly format; config/file-keys.ts): the walk to parent directories' files stops at this file's project. */
  inherit?: boolean
  /** `disable: [names]` (friendly format): servers of weaker layers this file turns off. */
  disable?: string[]
  /** The user's own file only: `trustedSigners:` (config/signers.ts). */
  trustedSigners?: TrustedSigner[]
  /** Set when the file was refused unread: `ok` is false, no entries, one `refused` diagnostic; never use a last good version. */
  refused?: FileRefusal
}

export interface ParseOptions extends CheckOptions {
  file: string
  format: FileFormat
}

/** All diagnostics of a parsed file, file-level first, then by entry. */
export function allDiagnostics(parsed: ParsedFile): Diagnostic[] {
  return [...parsed.diagnostics, ...parsed.entries.flatMap((e) => e.diagnostics)]
}

export function parseConfigText(input: string, opts: ParseOptions): ParsedFile {
  const { file, format } = opts
  const fail = (d: Omit<Diagnostic, 'file' | 'severity'> & { severity?: Diagnostic['severity'] }): ParsedFile => ({
    file,
    format,
    ok: false,
    entries: [],
    diagnostics: [{ severity: 'error', file, ...d }],
  })
  if (Buffer.byteLength(input, 'utf8') > MAX_CONFIG_BYTES) {
    return fail({
      code: 'too-large',
      message: `file is larger than ${MAX_CONFIG_BYTES / 1024} KiB; refusing to read it`,
      line: 0,
      col: 0,
      path: '',
    })
  }
  const text = input.charCodeAt(0) === 0xfeff ? input.slice(1) : input
  const control = CONTROL_CHAR.exec(text)
  if (control) {
    const hex = control[0].charCodeAt(0).toString(16).toUpperCase().padStart(4, '0')
    return fail({
      code: 'syntax',
      message: `contains a control character (U+${hex}): not a text config file`,
      ...positionAt(text, control.index),
      path: '',
    })
  }
  if (text.trim() === '') {
    const what = format === 'friendly' ? 'a "servers:" mapping' : 'a JSON object with "mcpServers"'
    return fail({ code: 'empty-file', message: `file is empty; expected ${what}`, line: 1, col: 1, path: '' })
  }
  if (format === 'mcpServers') {
    const bad = checkJsonSyntax(text, MAX_DEPTH)
    if (bad)
      return fail({
        code: bad.tooDeep ? 'too-deep' : 'syntax',
        message: bad.tooDeep ? bad.message : `invalid JSON: ${bad.message}`,
        ...positionAt(text, bad.offset),
        path: '',
      })
  }
  // Strict JSON already refused nesting deeper than MAX_DEPTH; YAML flow collections are scanned here, and
  // both formats' size in values (what the parser's time grows with) before the parser runs.
  const heavy = scanStructure(text, {
    maxFlowDepth: format === 'friendly' ? MAX_FLOW_DEPTH : Number.POSITIVE_INFINITY,
    maxValues: MAX_VALUES,
  })
  if (heavy?.code === 'too-deep')
    return fail({
      code: 'too-deep',
      message: `nested more than ${MAX_DEPTH} levels deep`,
      ...positionAt(text, heavy.offset),
      path: '',
    })
  if (heavy) {
    return fail({
      code: 'too-complex',
      message: `holds more than ${MAX_VALUES} values (brackets, commas, ":" and "- "); refusing to parse it`,
      ...positionAt(text, heavy.offset),
      path: '',
    })
  }
  const lines = new LineCounter()
  let doc: Document.Parsed
  try {
    // uniqueKeys: false — duplicates are found in linear time by inspectDocument (the parser's check is quadratic).
    doc = parseDocument(text, {
      lineCounter: lines,
      uniqueKeys: false,
      prettyErrors: false,
      logLevel: 'error',
      strict: true,
      schema: format === 'mcpServers' ? 'json' : 'core',
      customTags: [],
    })
  } catch (err) {
    return fail({ code: 'syntax', message: `cannot parse: ${(err as Error).message}`, line: 0, col: 0, path: '' })
  }
  const at = (offset: number) => {
    const p = lines.linePos(offset)
    return { line: p.line, col: p.col }
  }
  const inspection = inspectDocument(doc, text, at, rootKeyOf(format), {
    maxDepth: MAX_DEPTH,
    maxAliases: MAX_ALIAS_COUNT,
  })
  if (inspection.file) {
    const { segments, ...rest } = inspection.file
    return fail({ ...rest, path: formatPath(segments) })
  }
  const listed = doc.get(rootKeyOf(format), true)
  if (isMap(listed) && listed.items.length > MAX_SERVERS) {
    return fail({
      code: 'too-many-servers',
      message: `defines ${listed.items.length} servers; a config file may define at most ${MAX_SERVERS}`,
      ...at(listed.range?.[0] ?? 0),
      path: rootKeyOf(format),
    })
  }
  let value: unknown
  try {
    value = doc.toJS({ maxAliasCount: MAX_ALIAS_COUNT })
  } catch (err) {
    const msg = (err as Error).message
    if (/excessive alias/i.test(msg))
      return fail({
        code: 'alias-limit',
        message: `too many alias expansions (limit ${MAX_ALIAS_COUNT}); refusing a possible alias bomb`,
        ...at(firstAliasOffset(doc)),
        path: '',
      })
    // Not echoed: the library's message may quote the file's text.
    return fail({
      code: 'syntax',
      message: 'cannot read the document (unsupported YAML construct)',
      line: 1,
      col: 1,
      path: '',
    })
  }
  if (inspection.aliases > 0 && exceedsValues(value, MAX_VALUES)) {
    return fail({
      code: 'too-complex',
      message: `expands through aliases to more than ${MAX_VALUES} values; refusing a possible alias bomb`,
      ...at(firstAliasOffset(doc)),
      path: '',
    })
  }
  return readDocument(doc, value, at, inspection.entries, opts)
}

function firstAliasOffset(doc: Document.Parsed): number {
  let offset = 0
  visit(doc, {
    Alias(_, node) {
      offset = node.range?.[0] ?? 0
      return visit.BREAK
    },
  })
  return offset
}

/** C0 controls other than tab, LF and CR, and DEL: never in a text config file. */
const CONTROL_CHAR = /[\u0000-\u0008\u000B\u000C\u000E-\u001F\u007F]/
