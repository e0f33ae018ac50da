/**
 * Reading a parsed YAML document safely: positions of fields, problems the
 * parser or its structure hold (duplicate keys, tags, depth), and whether
 * each problem belongs to one server entry or to the whole file.
 *
 * Contract: pure and never throws. Messages name keys and positions, never
 * values (a value may be a secret). A problem inside `servers.<name>` (or
 * `mcpServers.<name>`) is scoped to that entry so the file's other entries
 * survive; any other problem is the file's.
 *
 * @module
 */
import {
  type Document,
  isAlias,
  isCollection,
  isMap,
  isNode,
  isPair,
  isScalar,
  isSeq,
  type Node,
  type Pair,
  visit,
  type YAMLMap,
} from 'yaml'
import type { DiagnosticCode } from './diagnostics.ts'

export type At = (offset: number) => { line: number; col: number }

/** A problem with a position, before it is given a file and severity. */
export interface Located {
  code: DiagnosticCode
  message: string
  line: number
  col: number
  /** Field path segments from the document root. */
  segments: (string | number)[]
}

export interface Inspection {
  /** The first problem that concerns the whole file. */
  file?: Located
  /** The first problem of each entry, by server name. */
  entries: Map<string, Located>
  /** Alias nodes (`*name`) in the document (counted up to one past the limit). */
  aliases: number
}

/** 1-based line and column of a UTF-16 offset (LF and CRLF line ends). */
export function positionAt(text: string, offset: number): { line: number; col: number } {
  let line = 1
  let start = 0
  for (let i = text.indexOf('\n'); i >= 0 && i < offset; i = text.indexOf('\n', i + 1)) {
    line++
    start = i + 1
  }
  return { line, col: offset - start + 1 }
}

const ALLOWED_TAGS = new Set(['str', 'int', 'float', 'bool', 'null', 'map', 'seq'].map((t) => `tag:yaml.org,2002:${t}`))

function keyText(key: unknown): string {
  return isScalar(key) ? String(key.value) : String(key)
}

/** Field path of `node` given its visitor ancestors (Document, Map, Pair, Seq…). */
function segmentsOf(ancestors: readonly unknown[], node: unknown): (string | number)[] {
  const chain = [...ancestors, node]
  const out: (string | number)[] = []
  for (let i = 0; i < chain.length - 1; i++) {
    const a = chain[i]
    const b = chain[i + 1]
    if (isPair(a) && b === a.value) out.push(keyText(a.key))
    else if (isSeq(a)) out.push(a.items.indexOf(b as never))
  }
  if (isPair(node)) out.push(keyText(node.key))
  return out
}

/** The first line of a YAML error, reworded where the library's text is about its own API or quotes file content. */
export function yamlMessage(message: string, maxDepth: number): string {
  if (/call stack/i.test(message)) return `nested more than ${maxDepth} levels deep`
  if (/multiple documents/i.test(message)) return 'more than one YAML document ("---"): a config file holds exactly one'
  if (/^Unresolved plain scalar/.test(message)) return 'unquoted text: JSON strings need double quotes'
  // Text after ": " is the library quoting the file (a token, an escape, a block header): never echoed.
  const first = message.split('\n')[0]!.replace(/ at line \d+, column \d+:?$/, '')
  const cut = first.indexOf(': ')
  return cut > 0 ? first.slice(0, cut) : first
}

/** Start of the tag written before the value at `start` (the value itself when none is found on its line). */
function tagOffset(text: string, start: number): number {
  let i = start
  while (i > 0 && (text[i - 1] === ' ' || text[i - 1] === '\t')) i--
  let j = i
  while (j > 0 && !/\s/.test(text[j - 1]!)) j--
  return text[j] === '!' ? j : start
}

export interface InspectLimits {
  /** Collections nested deeper than this are refused (`too-deep`). */
  readonly maxDepth: number
  /** Alias nodes (`*name`) one document may hold (`alias-limit`). */
  readonly maxAliases: number
}

/**
 * Every problem the parsed document holds, scoped: parser errors, duplicate
 * keys, custom tags, nesting deeper than `maxDepth`, more than `maxAliases`
 * aliases and aliases to no earlier anchor. Linear in the document's nodes.
 */
export function inspectDocument(
  doc: Document.Parsed,
  text: string,
  at: At,
  rootKey: string,
  limits: InspectLimits,
): Inspection {
  const { maxDepth, maxAliases } = limits
  const out: Inspection = { entries: new Map(), aliases: 0 }
  // Anchors seen so far in document order (the visit's order): an alias is checked against them here,
  // as the library's own `resolve(doc)` re-walks the whole document for every alias.
  const anchors = new Set<string>()
  const add = (p: Located) => {
    const server = p.segments[0] === rootKey && p.segments.length >= 2 ? String(p.segments[1]) : undefined
    if (server === undefined) out.file ??= p
    else if (!out.entries.has(server)) out.entries.set(server, p)
  }
  for (const e of doc.errors) {
    const deep = /call stack/i.test(e.message)
    out.file ??= {
      code: deep ? 'too-deep' : 'syntax',
      message: yamlMessage(e.message, maxDepth),
      ...at(e.pos[0]),
      segments: [],
    }
  }
  if (out.file) return out
  const duplicates = duplicatePairs(doc)
  visit(doc, {
    Pair(_k, pair, ancestors) {
      if (isCollection(pair.key)) {
        add({
          code: 'syntax',
          message: 'a key must be plain text, not a list or mapping',
          ...at(pair.key.range?.[0] ?? 0),
          segments: segmentsOf(ancestors, pair).slice(0, -1),
        })
        return visit.SKIP
      }
      const first = duplicates.get(pair)
      if (!first) return undefined
      const name = keyText(pair.key)
      const where = isNode(first.key) && first.key.range ? ` (first at line ${at(first.key.range[0]).line})` : ''
      const offset = isNode(pair.key) ? (pair.key.range?.[0] ?? 0) : 0
      add({
        code: 'duplicate-key',
        message: `duplicate key "${name}"${where}`,
        ...at(offset),
        segments: segmentsOf(ancestors, pair),
      })
      return undefined
    },
    Node(_k, node: Node, ancestors) {
      if (isCollection(node) && ancestors.filter(isCollection).length >= maxDepth) {
        add({
          code: 'too-deep',
          message: `nested more than ${maxDepth} levels deep`,
          ...at(node.range?.[0] ?? 0),
          segments: segmentsOf(ancestors, node).slice(0, 3),
        })
        return visit.SKIP
      }
      if (node.anchor) anchors.add(node.anchor)
      if (isAlias(node) && ++out.aliases > maxAliases) {
        out.file ??= {
          code: 'alias-limit',
          message: `more than ${maxAliases} aliases ("*name"); refusing a possible alias bomb`,
          ...at(node.range?.[0] ?? 0),
          segments: [],
        }
        return visit.BREAK
      }
      if (isAlias(node) && !anchors.has(node.source)) {
        // The whole document cannot be converted, so this is the file's problem. The alias name is
        // not echoed: an unquoted value starting with "*" may be a password.
        out.file ??= {
          code: 'syntax',
          message: 'an alias ("*name") refers to no anchor defined before it; quote a value that starts with "*"',
          ...at(node.range?.[0] ?? 0),
          segments: segmentsOf(ancestors, node),
        }
        return undefined
      }
      if (node.tag && !ALLOWED_TAGS.has(node.tag)) {
        // Only YAML's own "!!" tags are named: a local "!tag" may be an unquoted password.
        const tag = node.tag.startsWith('tag:yaml.org,2002:')
          ? `tag "${node.tag.replace('tag:yaml.org,2002:', '!!')}"`
          : 'a custom "!" tag'
        const hint = node.tag.startsWith('tag:yaml.org,2002:') ? '' : '; quote a value that starts with "!"'
        add({
          code: 'forbidden-tag',
          message: `${tag} is not allowed: config files hold plain data (no !!js or custom tags)${hint}`,
          ...at(tagOffset(text, node.range?.[0] ?? 0)),
          segments: segmentsOf(ancestors, node),
        })
      }
      return undefined
    },
  })
  return out
}

/**
 * Every pair whose key repeats an earlier key of the same mapping, with that
 * earlier pair — the parser's own `uniqueKeys` rule (equal scalar values),
 * in linear time: the parser's check compares each key with every earlier
 * one, which takes seconds to minutes on a hostile file with 10^4-10^5 keys.
 */
function duplicatePairs(doc: Document.Parsed): Map<Pair, Pair> {
  const out = new Map<Pair, Pair>()
  visit(doc, {
    Map(_k, map) {
      const seen = new Map<unknown, Pair>()
      for (const pair of map.items) {
        const key = isScalar(pair.key) ? pair.key.value : pair.key
        const first = seen.get(key)
        if (first) out.set(pair, first)
        else seen.set(key, pair)
      }
    },
  })
  return out
}

/** Each mapping's pairs by key text (the first of equal keys), built on the first lookup: a position costs the path's depth, not the mapping's size. */
const pairsByKey = new WeakMap<YAMLMap, Map<string, Pair>>()

function pairOf(map: YAMLMap, key: string): Pair | undefined {
  let index = pairsByKey.get(map)
  if (!index) {
    index = new Map()
    for (const pair of map.items) {
      const text = keyText(pair.key)
      if (!index.has(text)) index.set(text, pair)
    }
    pairsByKey.set(map, index)
  }
  return index.get(key)
}

/** The node at `path`, matching map keys by their text (so `123` finds the key 123). */
function nodeAt(doc: Document.Parsed, path: readonly (string | number)[]): unknown {
  let node: unknown = doc.contents
  for (const seg of path) {
    if (isMap(node)) node = pairOf(node, String(seg))?.value
    else if (isSeq(node) && typeof seg === 'number') node = node.items[seg]
    else return undefined
  }
  return node
}

/** Position of the node at `path` (or of its key), falling back to the nearest ancestor that exists. */
export function positionOf(
  doc: Document.Parsed,
  path: readonly (string | number)[],
  atKey: boolean,
  at: At,
): { line: number; col: number } {
  for (let n = path.length; n > 0; n--) {
    const prefix = path.slice(0, n)
    if (atKey || n < path.length) {
      const parent = nodeAt(doc, prefix.slice(0, -1))
      if (isMap(parent)) {
        const last = String(prefix[prefix.length - 1])
        const pair = pairOf(parent, last)
        if (pair && isNode(pair.key) && pair.key.range) return at(pair.key.range[0])
      }
    }
    const node = nodeAt(doc, prefix)
    if (isNode(node) && node.range) return at(node.range[0])
  }
  return isNode(doc.contents) && doc.contents.range ? at(doc.contents.range[0]) : { line: 1, col: 1 }
}
