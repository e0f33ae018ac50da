/**
 * The shape of the host's own `@deepseek-ai/dsh-mcp-client` Config: which
 * transports it has and which top-level keys each takes, read from the
 * exported Schemastery union (`list` of object branches, `dict` of keys,
 * `transport` a const), plus the client's version from its package.json.
 *
 * Contract: computed once per process (the host's client does not change
 * under us). A Config this code cannot read as such a union yields `null`,
 * and the caller then checks nothing beyond the client's own validation (a
 * future client shape must not block every mount). Never throws.
 *
 * @module
 */
import { createRequire } from 'node:module'
import * as mcpClient from '@deepseek-ai/dsh-mcp-client'
import type { HostClientShape } from '../config/official.ts'

interface Node {
  type?: string
  value?: unknown
  list?: Node[]
  dict?: Record<string, Node>
}

let cached: HostClientShape | null | undefined

function clientVersion(): string {
  try {
    const require = createRequire(import.meta.url)
    return String((require('@deepseek-ai/dsh-mcp-client/package.json') as { version?: unknown }).version ?? 'unknown')
  } catch {
    return 'unknown'
  }
}

/** The installed host client's shape, or null when its Config is not a readable union of transports. */
export function hostClientShape(config: unknown = mcpClient.Config): HostClientShape | null {
  if (config === mcpClient.Config && cached !== undefined) return cached
  const union = config as Node
  let shape: HostClientShape | null = null
  if (union?.type === 'union' && Array.isArray(union.list)) {
    const transports: Record<string, string[]> = {}
    for (const branch of union.list) {
      const t = branch?.dict?.transport
      if (t?.type !== 'const' || typeof t.value !== 'string') continue
      transports[t.value] = Object.keys(branch.dict ?? {})
    }
    if (Object.keys(transports).length > 0) shape = { version: clientVersion(), transports }
  }
  if (config === mcpClient.Config) cached = shape
  return shape
}
