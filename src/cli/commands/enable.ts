/** `dsh-mcp enable <name> [-s scope]`: see ../toggle.ts for where the switch is written. */
import type { CliContext } from '../program.ts'
import type { WriteScope } from '../target.ts'
import { toggle } from '../toggle.ts'

export async function run(cli: CliContext, name: string, opts: { scope?: WriteScope }): Promise<number> {
  return toggle(cli, name, true, opts.scope)
}
