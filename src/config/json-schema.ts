/**
 * The JSON Schema of the friendly format, generated from the zod schema so
 * editors (yaml-language-server) complete exactly what the loader accepts.
 *
 * @module
 */
import { z } from 'zod'
import { FriendlyFileSchema } from './schema.ts'



export function friendlyJsonSchema(): Record<string, unknown> {
  const schema = z.toJSONSchema(FriendlyFileSchema, { io: 'input', unrepresentable: 'any' }) as Record<string, unknown>
  return { ...schema, title: 'dsh-project-mcp servers (.dsh/mcp.yml)' }
}
