/** `dsh-mcp schema`: print the JSON Schema of the friendly format. */
import { friendlyJsonSchema } from '../../config/json-schema.ts'
import type { CliContext } from '../program.ts'

export async function run(cli: CliContext): Promise<number> {
  cli.out.json(friendlyJsonSchema())
  return 0
}
