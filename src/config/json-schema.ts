/**
 * The JSON Schema of the friendly format, generated from the zod schema so
 * editors (yaml-language-server) complete exactly what the loader accepts.
 *
 * Contract: server names are constrained by the serverName pattern
 * (`propertyNames`), `transport`/`type` complete to the accepted spellings,
 * and unknown entry keys stay allowed (the loader warns about them rather
 * than refusing them). Pure; the build writes it to schema/dsh-mcp.schema.json.
 *
 * @module
 */
import * as z from 'zod/mini'
import { FriendlyFileSchema, TRANSPORT_SPELLINGS } from './schema.ts'

type Json = Record<string, unknown>

export function friendlyJsonSchema(): Json {
  const schema = z.toJSONSchema(FriendlyFileSchema, { io: 'input', unrepresentable: 'any' }) as Json
  const servers = (schema.properties as Record<string, Json>).servers!
  const entry = servers.additionalProperties as Json
  const props = entry.properties as Record<string, Json>
  for (const key of ['transport', 'type']) props[key] = { ...props[key], enum: [...TRANSPORT_SPELLINGS] }
  return { ...schema, title: 'dsh-project-mcp servers (.dsh/mcp.yml)' }
}
