/**
 * Public tool names and who owns them.
 *
 * Contract: mirrors the official client's naming rule — `mcp__<server>__<raw>`,
 * normalized to `[A-Za-z0-9_-]{1,64}` with a 12-hex SHA-256 suffix when the
 * name had to change. The `mcp__<server>__` prefix always survives (a server
 * name is at most 32 valid characters, the kept stem is 51), so a registered
 * name maps back to its server by prefix. Two server names *overlap* when one
 * prefix is a prefix of the other (`a` and `a__b`): the planner never mounts
 * overlapping names side by side, so ownership is unambiguous. Pure.
 *
 * @module
 */
import { nodeCrypto } from '../config/node-crypto.ts'

const MAX_PUBLIC_NAME_LENGTH = 64
const HASH_LENGTH = 12
const INVALID_NAME_CHARS = /[^A-Za-z0-9_-]/g
const HASH_SUFFIX = /_[0-9a-f]{12}$/

/** The official client's `publicToolName(serverName, rawName)`. */
export function publicToolName(serverName: string, rawName: string): string {
  const joined = `mcp__${serverName}__${rawName}`
  const normalized = joined.replace(INVALID_NAME_CHARS, '_')
  if (normalized === joined && normalized.length <= MAX_PUBLIC_NAME_LENGTH) return normalized
  const hash = nodeCrypto().createHash('sha256').update(`${serverName}\0${rawName}`).digest('hex').slice(0, HASH_LENGTH)
  return `${normalized.slice(0, MAX_PUBLIC_NAME_LENGTH - HASH_LENGTH - 1)}_${hash}`
}

function toolPrefix(serverName: string): string {
  return `mcp__${serverName}__`
}

/**
 * The raw tool name behind a public name owned by `serverName`: exact for the
 * clean form; for a normalized name (ending `_<12 hex>`) the normalized stem
 * without the hash — the raw name itself is not recoverable, so filters match
 * the stem (`read.file` is matched as `read_file`).
 */
export function rawNameOf(publicName: string, serverName: string): string {
  const rest = publicName.slice(toolPrefix(serverName).length)
  return HASH_SUFFIX.test(rest) ? rest.replace(HASH_SUFFIX, '') : rest
}

/** Whether tools of `a` and `b` could be confused by prefix (equal, or one is `<other>__…`). */
export function namesOverlap(a: string, b: string): boolean {
  return a === b || a.startsWith(`${b}__`) || b.startsWith(`${a}__`)
}

/** An index from public tool names to the server that owns them. */
export interface OwnerIndex {
  ownerOf(publicName: string): string | undefined
}

/** Build an owner index over server names (longest prefix wins; non-overlap makes it unique). */
export function ownerIndex(serverNames: Iterable<string>): OwnerIndex {
  const byLength = [...new Set(serverNames)].sort((a, b) => b.length - a.length)
  return {
    ownerOf(publicName) {
      if (!publicName.startsWith('mcp__')) return undefined
      for (const s of byLength) if (publicName.startsWith(toolPrefix(s))) return s
      return undefined
    },
  }
}
