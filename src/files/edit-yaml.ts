/**
 * Text-preserving edits of a friendly YAML file (`servers:` mapping).
 *
 * Contract: every edit changes only the lines of the pair it touches; every
 * other byte of the file — comments, blank lines, key order, unknown keys,
 * quoting, spacing before `#` — stays as it was. Positions come from the yaml
 * Document API (`parseDocument` node ranges); new pairs are rendered with the
 * yaml stringifier in the file's own indentation and spliced in as lines.
 * A pair is its key line through its value's last line, plus deeper-indented
 * comment lines that follow it; the comment lines right above a key belong to
 * that key (removed with it). Maps written in flow style (`{…}`) are
 * re-rendered in block style (only that map's own text changes); a document
 * whose root is a flow map is re-rendered whole. Line endings (LF/CRLF) and a
 * BOM are kept. Callers validate the text (parseConfigText) before editing:
 * these functions assume a document without errors.
 *
 * @module
 */
import { Document, isMap, isScalar, isSeq, type Node, type Pair, parseDocument, type YAMLMap } from 'yaml'
import { isRecord } from '../config/guards.ts'

export type Path = readonly string[]

interface Layout {
  /** Indentation unit (spaces). */
  unit: number
  /** Whether block sequences are indented under their key. */
  indentSeq: boolean
}

const RENDER = { lineWidth: 0, flowCollectionPadding: false } as const

class Text {
  readonly text: string
  readonly starts: number[]
  readonly lines: string[]
  constructor(text: string) {
    this.text = text
    this.lines = text.split('\n')
    this.starts = []
    let o = 0
    for (const l of this.lines) {
      this.starts.push(o)
      o += l.length + 1
    }
  }
  lineOf(offset: number): number {
    let lo = 0
    let hi = this.starts.length - 1
    while (lo < hi) {
      const mid = (lo + hi + 1) >> 1
      if (this.starts[mid]! <= offset) lo = mid
      else hi = mid - 1
    }
    return lo
  }
  col(offset: number): number {
    return offset - this.starts[this.lineOf(offset)]!
  }
  /** Replace lines [from, to] (inclusive; `to < from` inserts before `from`) with `insert`. */
  splice(from: number, to: number, insert: readonly string[]): string {
    return [...this.lines.slice(0, from), ...insert, ...this.lines.slice(to + 1)].join('\n')
  }
}

const indentOf = (line: string) => line.length - line.trimStart().length
const isBlank = (line: string) => line.trim() === ''
const isComment = (line: string) => line.trimStart().startsWith('#')

function parse(text: string) {
  return parseDocument(text, { uniqueKeys: false, prettyErrors: false })
}

function detectLayout(t: Text): Layout {
  let unit = 0
  let indentSeq: boolean | undefined
  for (let i = 0; i < t.lines.length; i++) {
    const line = t.lines[i]!
    if (isBlank(line) || isComment(line)) continue
    const ind = indentOf(line)
    const next = t.lines.slice(i + 1).find((l) => !isBlank(l) && !isComment(l))
    if (next === undefined || !/:\s*(#.*)?$/.test(line)) continue
    const d = indentOf(next) - ind
    const seq = next.trimStart().startsWith('- ') || next.trim() === '-'
    if (seq && indentSeq === undefined) indentSeq = d > 0
    if (!seq && d > 0 && unit === 0) unit = d
    if (unit && indentSeq !== undefined) break
  }
  return { unit: unit || 2, indentSeq: indentSeq ?? true }
}

/** The block style the CLI writes: short scalar lists in flow style, maps in block style. */
function styled(doc: Document, value: unknown): Node {
  const node = doc.createNode(value) as Node
  const walk = (n: unknown) => {
    if (isSeq(n)) {
      const scalars = n.items.every((it) => isScalar(it))
      const width = n.items.reduce<number>((w, it) => w + String((it as { value?: unknown }).value ?? '').length + 2, 0)
      n.flow = scalars && width <= 72
      for (const it of n.items) walk(it)
    } else if (isMap(n)) {
      n.flow = n.items.length === 0
      for (const p of n.items) walk(p.value)
    }
  }
  walk(node)
  return node
}

/** `key: value` rendered as block lines at column `col`. */
function renderPair(key: string, value: unknown, col: number, layout: Layout): string[] {
  const doc = new Document()
  const map = doc.createNode({}) as YAMLMap
  map.set(doc.createNode(key), styled(doc, value))
  doc.contents = map
  const out = doc.toString({ ...RENDER, indent: layout.unit, indentSeq: layout.indentSeq }).replace(/\n$/, '')
  return out.split('\n').map((l) => (l === '' ? l : ' '.repeat(col) + l))
}

interface PairSpan {
  key: string
  pair: Pair
  keyLine: number
  /** First line of the comments above the key that belong to it. */
  leadStart: number
  /** Last line of the pair (value and its deeper comments). */
  end: number
}

function spans(t: Text, map: YAMLMap): PairSpan[] {
  const out: PairSpan[] = []
  let prevEnd = -1
  for (const pair of map.items) {
    const k = pair.key as Node
    const keyLine = t.lineOf(k.range![0])
    const col = t.col(k.range![0])
    const v = pair.value as Node | null
    const valueEnd = v?.range && v.range[1] > v.range[0] ? v.range[1] - 1 : k.range![1]
    let end = Math.max(keyLine, t.lineOf(valueEnd))
    for (let i = end + 1; i < t.lines.length; i++) {
      const l = t.lines[i]!
      if (isBlank(l)) continue
      if (isComment(l) && indentOf(l) > col) end = i
      else break
    }
    let leadStart = keyLine
    if (prevEnd >= 0) leadStart = prevEnd + 1
    else
      while (leadStart > 0 && isComment(t.lines[leadStart - 1]!) && indentOf(t.lines[leadStart - 1]!) >= col)
        leadStart--
    out.push({ key: String(isScalar(k) ? k.value : k), pair, keyLine, leadStart, end })
    prevEnd = end
  }
  return out
}

function jsOf(node: unknown): unknown {
  return node && typeof (node as Node).toJSON === 'function' ? (node as Node).toJSON() : node
}

/** Set `key` of the map at `path` to `value` (replacing its lines, or appending a pair). */
export function setPair(text: string, path: Path, key: string, value: unknown): string {
  const t = new Text(text)
  const doc = parse(text)
  const layout = detectLayout(t)
  const map = path.length === 0 ? doc.contents : doc.getIn(path, true)
  if (path.length === 0 && (map === null || (isScalar(map) && map.value === null))) {
    // Empty document (or comments only): append at the end.
    const body = text.endsWith('\n') || text === '' ? text : text + '\n'
    return body + renderPair(key, value, 0, layout).join('\n') + '\n'
  }
  if (isMap(map) && !map.flow) {
    const all = spans(t, map)
    const col = t.col((map.items[0]!.key as Node).range![0])
    const hit = all.find((s) => s.key === key)
    const lines = renderPair(key, value, col, layout)
    if (hit) return t.splice(hit.keyLine, hit.end, lines)
    const last = all[all.length - 1]!
    return t.splice(last.end + 1, last.end, lines)
  }
  if (path.length === 0) return rerenderWhole(doc, [], key, value, layout)
  const parentPath = path.slice(0, -1)
  const name = path[path.length - 1]!
  const parent = parentPath.length === 0 ? doc.contents : doc.getIn(parentPath, true)
  const current = isMap(map) ? (jsOf(map) as Record<string, unknown>) : {}
  const next = { ...current, [key]: value }
  if (parentPath.length === 0 && (parent === null || (isScalar(parent) && parent.value === null)))
    return setPair(text, [], name, next)
  if (!isMap(parent) || parent.flow) return rerenderWhole(doc, path, key, value, layout)
  if (isMap(map) || map === undefined) return setPair(text, parentPath, name, next)
  // A null value (`servers:` or `servers: ~`): keep the key line (and its comment), add the pair under it.
  const s = spans(t, parent).find((p) => p.key === name)!
  const keyCol = t.col((s.pair.key as Node).range![0])
  let keyLineText = t.lines[s.keyLine]!
  const v = s.pair.value as Node | null
  if (v?.range && v.range[1] > v.range[0]) {
    const a = v.range[0] - t.starts[s.keyLine]!
    const b = v.range[1] - t.starts[s.keyLine]!
    keyLineText = (keyLineText.slice(0, a) + keyLineText.slice(b)).replace(/:\s+(#|$)/, (_m, g: string) =>
      g ? ': #' : ':',
    )
  }
  const lines = renderPair(key, value, keyCol + layout.unit, layout)
  return t.splice(s.keyLine, s.keyLine, [keyLineText, ...lines])
}

/** Remove `key` from the map at `path`; an emptied map becomes `{}`. Returns the text unchanged when absent. */
export function deletePair(text: string, path: Path, key: string): string {
  const t = new Text(text)
  const doc = parse(text)
  const layout = detectLayout(t)
  const map = path.length === 0 ? doc.contents : doc.getIn(path, true)
  if (!isMap(map) || !map.items.some((p) => isScalar(p.key) && String(p.key.value) === key)) return text
  const rest = Object.fromEntries(Object.entries(jsOf(map) as Record<string, unknown>).filter(([k]) => k !== key))
  if (map.flow || map.items.length === 1) {
    if (path.length === 0) return rerenderRoot(doc, rest, layout)
    return setPair(text, path.slice(0, -1), path[path.length - 1]!, rest)
  }
  const all = spans(t, map)
  const i = all.findIndex((s) => s.key === key)
  const hit = all[i]!
  let end = hit.end
  if (i === 0) {
    // The next pair's lead starts right after this one: drop its leading blank lines too.
    while (end + 1 < all[1]!.keyLine && isBlank(t.lines[end + 1]!)) end++
  }
  return t.splice(hit.leadStart, end, [])
}

function rerenderRoot(doc: ReturnType<typeof parse>, value: unknown, layout: Layout): string {
  const fresh = new Document()
  fresh.contents = styled(fresh, value)
  fresh.commentBefore = doc.commentBefore
  fresh.comment = doc.comment
  return fresh.toString({ ...RENDER, indent: layout.unit, indentSeq: layout.indentSeq })
}

function rerenderWhole(doc: ReturnType<typeof parse>, path: Path, key: string, value: unknown, layout: Layout): string {
  const root = (jsOf(doc.contents) ?? {}) as Record<string, unknown>
  let target: Record<string, unknown> = root
  for (const seg of path) {
    const child = target[seg]
    const next = isRecord(child) ? { ...child } : {}
    target[seg] = next
    target = next
  }
  target[key] = value
  return rerenderRoot(doc, root, layout)
}
