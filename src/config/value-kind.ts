/**
 * What kind of value was found, said without the value: `kindOf` ("a list",
 * "a mapping", "null", "a string"…) and a zod issue of the entry schema as one
 * short message ("expected a list, got a string", "must be a whole number").
 *
 * Contract: pure; a message names the kind of the value at the issue's path,
 * never the value itself (it may be a secret).
 *
 * @module
 */
import type * as z from 'zod/mini'

const EXPECTED: Record<string, string> = {
  array: 'a list',
  object: 'a mapping',
  record: 'a mapping',
  map: 'a mapping',
  string: 'a string',
  number: 'a number',
  int: 'an integer',
  boolean: 'true or false',
}

/** The raw value at `path`, to say what kind of value was found (never the value itself). */
function rawAt(raw: unknown, path: readonly PropertyKey[]): unknown {
  let node = raw
  for (const seg of path) {
    if (node === null || typeof node !== 'object') return undefined
    node = (node as Record<PropertyKey, unknown>)[seg]
  }
  return node
}

/** One zod issue of the entry schema as a short message (what was expected, what kind was found). */
export function describeZodIssue(issue: z.core.$ZodIssue, raw: unknown): string {
  const got = () => {
    const v = rawAt(raw, issue.path)
    return v === undefined ? '' : `, got ${kindOf(v)}`
  }
  switch (issue.code) {
    case 'invalid_type':
      if (issue.expected === 'int' && typeof rawAt(raw, issue.path) === 'number') return 'must be a whole number'
      return `expected ${EXPECTED[issue.expected] ?? issue.expected}${got()}`
    case 'too_small':
      return issue.origin === 'string' ? 'must not be empty' : `must be at least ${String(issue.minimum)}`
    case 'too_big':
      return `must be at most ${String(issue.maximum)}`
    case 'invalid_union':
      return `expected a string${got()}`
    case 'not_multiple_of':
      return 'must be a whole number'
    case 'unrecognized_keys':
      return `unknown key${issue.keys.length > 1 ? 's' : ''} ${issue.keys.map((k) => `"${k}"`).join(', ')}`
    default:
      return issue.message
  }
}

/** The kind of `value` ("null", "a list", "a mapping", "a string"…), never the value. */
export function kindOf(value: unknown): string {
  if (value === null) return 'null'
  if (Array.isArray(value)) return 'a list'
  if (typeof value === 'object') return 'a mapping'
  return `a ${typeof value}`
}
