/**
 * Text-preserving edits of a JSON config file (`{ "mcpServers": { … } }`).
 *
 * Contract: an edit splices only the text of the member it touches; every
 * other byte — key order, unknown keys, indentation, spacing, the final
 * newline — stays as it was. New members are rendered with `JSON.stringify`
 * in the file's own indentation unit (detected; default two spaces) at the
 * indentation of their siblings. Input must be strict JSON (`JSON.parse`
 * accepts it); `jsonEditable` says whether it is. Integer-like keys keep
 * their place (no object round trip). jsonc-parser's `modify`/`applyEdits`
 * (3.3.1) was measured in its place and not used: it reformats what it
 * touches (a one-line sibling object becomes multi-line, the emptied object
 * becomes `{\n    }`, a trailing comment moves), failing
 * test/files/edit-json.test.ts, for no gain in speed.
 *
 * @module
 */
import type { Path } from './edit-yaml.ts'
import { isRecord } from '../config/guards.ts'

interface JMember {
  key: string
  keyStart: number
  valueStart: number
  valueEnd: number
  value: JNode
}

interface JNode {
  kind: 'object' | 'array' | 'scalar'
  start: number
  end: number
  members?: JMember[]
}

/** Whether `text` is strict JSON with an object at the root. */
export function jsonEditable(text: string): boolean {
  try {
    return isRecord(JSON.parse(text))
  } catch {
    return false
  }
}

function scan(text: string): JNode {
  let i = 0
  const ws = () => {
    while (i < text.length && /[ \t\r\n\uFEFF]/.test(text[i]!)) i++
  }
  const str = (): string => {
    const start = i
    i++
    while (text[i] !== '"') i += text[i] === '\\' ? 2 : 1
    i++
    return JSON.parse(text.slice(start, i)) as string
  }
  const value = (): JNode => {
    ws()
    const start = i
    const c = text[i]
    if (c === '{') {
      i++
      const members: JMember[] = []
      ws()
      if (text[i] === '}') {
        i++
        return { kind: 'object', start, end: i, members }
      }
      for (;;) {
        ws()
        const keyStart = i
        const key = str()
        ws()
        i++ // ':'
        ws()
        const v = value()
        members.push({ key, keyStart, valueStart: v.start, valueEnd: v.end, value: v })
        ws()
        if (text[i] === ',') {
          i++
          continue
        }
        i++ // '}'
        return { kind: 'object', start, end: i, members }
      }
    }
    if (c === '[') {
      i++
      ws()
      if (text[i] === ']') {
        i++
        return { kind: 'array', start, end: i }
      }
      for (;;) {
        value()
        ws()
        if (text[i++] === ',') continue
        return { kind: 'array', start, end: i }
      }
    }
    if (c === '"') {
      str()
      return { kind: 'scalar', start, end: i }
    }
    while (i < text.length && !/[\s,}\]]/.test(text[i]!)) i++
    return { kind: 'scalar', start, end: i }
  }
  return value()
}

function lineStartOf(text: string, offset: number): number {
  return text.lastIndexOf('\n', offset - 1) + 1
}

function indentAt(text: string, offset: number): string {
  const ls = lineStartOf(text, offset)
  return /^[ \t]*/.exec(text.slice(ls))![0]
}

function detectUnit(text: string): string {
  const m = /\n([ \t]+)\S/.exec(text)
  return m ? m[1]! : '  '
}

function render(value: unknown, unit: string, base: string): string {
  return JSON.stringify(value, null, unit).replace(/\n/g, `\n${base}`)
}

function find(root: JNode, path: Path): JNode | undefined {
  let node: JNode | undefined = root
  for (const seg of path) {
    node = node?.kind === 'object' ? node.members!.find((m) => m.key === seg)?.value : undefined
  }
  return node
}

/** Set `key` of the object at `path` (creating missing objects on the way). */
export function setMember(text: string, path: Path, key: string, value: unknown): string {
  const root = scan(text)
  const unit = detectUnit(text)
  const obj = find(root, path)
  if (obj?.kind !== 'object') {
    // Missing, or not an object: (re)create it holding just this member.
    if (path.length === 0) throw new Error('cannot edit: the JSON root is not an object')
    return setMember(text, path.slice(0, -1), path[path.length - 1]!, { [key]: value })
  }
  const members = obj.members!
  const hit = members.find((m) => m.key === key)
  if (hit) {
    const base = indentAt(text, hit.keyStart)
    return text.slice(0, hit.valueStart) + render(value, unit, base) + text.slice(hit.valueEnd)
  }
  if (members.length === 0) {
    const base = indentAt(text, obj.start)
    const inner = base + unit
    const body = `{\n${inner}${JSON.stringify(key)}: ${render(value, unit, inner)}\n${base}}`
    return text.slice(0, obj.start) + body + text.slice(obj.end)
  }
  const last = members[members.length - 1]!
  const first = members[0]!
  const sameLine = lineStartOf(text, first.keyStart) === lineStartOf(text, obj.start)
  const base = sameLine ? '' : indentAt(text, last.keyStart)
  const sep = sameLine ? ', ' : `,\n${base}`
  const entry = `${JSON.stringify(key)}: ${render(value, unit, base)}`
  return text.slice(0, last.valueEnd) + sep + entry + text.slice(last.valueEnd)
}

/** Remove `key` from the object at `path`; unchanged when absent. */
export function deleteMember(text: string, path: Path, key: string): string {
  const obj = find(scan(text), path)
  if (obj?.kind !== 'object') return text
  const members = obj.members!
  const i = members.findIndex((m) => m.key === key)
  if (i < 0) return text
  if (members.length === 1) return text.slice(0, obj.start) + '{}' + text.slice(obj.end)
  const m = members[i]!
  if (i < members.length - 1) return text.slice(0, m.keyStart) + text.slice(members[i + 1]!.keyStart)
  return text.slice(0, members[i - 1]!.valueEnd) + text.slice(m.valueEnd)
}
