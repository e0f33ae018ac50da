// A minimal MCP stdio server for the doctor row: newline-delimited JSON-RPC, no SDK, so its own
// start costs about what `node -e 0` costs and 8 of them on 2 cores are not CPU-bound.
// Usage: node slow-server.mjs <name> <initDelayMs>. It answers initialize no sooner than
// initDelayMs after it started, then tools/list (two tools) and ping; exits when stdin ends.
import { createInterface } from 'node:readline'

const started = Date.now()
const name = process.argv[2] ?? 'slow'
const delayMs = Number(process.argv[3] ?? 300)
const tools = ['echo', 'add'].map((t) => ({
  name: t,
  description: `${t} (${name})`,
  inputSchema: { type: 'object', properties: {} },
}))
const send = (message) => process.stdout.write(`${JSON.stringify({ jsonrpc: '2.0', ...message })}\n`)

createInterface({ input: process.stdin }).on('line', (line) => {
  let msg
  try {
    msg = JSON.parse(line)
  } catch {
    return
  }
  if (msg.id === undefined) return
  if (msg.method === 'initialize') {
    const result = {
      protocolVersion: msg.params?.protocolVersion ?? '2025-06-18',
      capabilities: { tools: {} },
      serverInfo: { name, version: '0.0.0-bench' },
    }
    setTimeout(() => send({ id: msg.id, result }), Math.max(0, started + delayMs - Date.now()))
  } else if (msg.method === 'tools/list') send({ id: msg.id, result: { tools } })
  else if (msg.method === 'ping') send({ id: msg.id, result: {} })
  else send({ id: msg.id, error: { code: -32601, message: `no method ${msg.method}` } })
})
process.stdin.on('end', () => process.exit(0))
