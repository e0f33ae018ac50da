// The floor of a health check: N raw spawns of the configured servers, each with a minimal MCP SDK
// client doing initialize + tools/list, all in parallel, then close. Usage:
//   node floor.mjs <servers.json> <timeoutMs> [setsid]
// With `setsid`, each server is started through setsid(1) (which execs it in a session of its own, as
// our probe's detached spawn does): with the kernel's autogroup scheduling, a session is its own CPU
// group, so on a loaded machine N servers in N sessions get more CPU than N servers in one.
// servers.json: [{ name, command, args, env }]. Prints "<name> ok <tools>" or "<name> failed: why" per server.
// The client is minimal: it never calls a tool, so it validates no tool output (no Ajv instance, no
// outputSchema compiled: the SDK's default would cost each client that CPU). Each client closes the
// SDK's way (stdin closed, the child awaited, SIGTERM after 2 s).
import { readFileSync } from 'node:fs'
import { Client } from '@modelcontextprotocol/sdk/client/index.js'
import { StdioClientTransport } from '@modelcontextprotocol/sdk/client/stdio.js'

const servers = JSON.parse(readFileSync(process.argv[2], 'utf8'))
const timeoutMs = Number(process.argv[3] ?? 10_000)
const ownSession = process.argv[4] === 'setsid'

const noValidation = { getValidator: () => (input) => ({ valid: true, data: input, errorMessage: undefined }) }

async function one(s) {
  const transport = new StdioClientTransport({
    command: ownSession ? 'setsid' : s.command,
    args: ownSession ? [s.command, ...s.args] : s.args,
    env: s.env,
    stderr: 'ignore',
  })
  const client = new Client({ name: 'floor', version: '1' }, { capabilities: {}, jsonSchemaValidator: noValidation })
  try {
    await client.connect(transport, { timeout: timeoutMs })
    const { tools } = await client.listTools(undefined, { timeout: timeoutMs })
    return `${s.name} ok ${tools.length}`
  } catch (error) {
    return `${s.name} failed: ${String(error?.message ?? error).split('\n')[0]}`
  } finally {
    await client.close().catch(() => {})
  }
}

const lines = await Promise.all(servers.map(one))
process.stdout.write(`${lines.join('\n')}\n`)
process.exit(0)
