/** `dsh-mcp disable <name> [-s scope]`: a committed server is disabled in .dsh/mcp.local.yml (see ../toggle.ts). */
import type { CliContext } from '../program.ts'
import type { WriteScope } from '../target.ts'
import { toggle } from '../toggle.ts'

export async function run(cli: CliContext, name: string, opts: { scope?: WriteScope }): Promise<number> {
  return toggle(cli, name, false, opts.scope)
}
