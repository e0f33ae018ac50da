#!/usr/bin/env node
// The demo's example MCP server (stdio): `node example-server.mjs <label> <tool> [tool...]`.
// Every tool answers with its label, its name and the arguments it got, so the demo can show
// which project's server answered.
import { McpServer } from '@modelcontextprotocol/sdk/server/mcp.js'
import { StdioServerTransport } from '@modelcontextprotocol/sdk/server/stdio.js'
import { z } from 'zod'

const [label = 'example', ...tools] = process.argv.slice(2)
const server = new McpServer({ name: `demo-${label}`, version: '1.0.0' })
for (const tool of tools) {
  server.registerTool(
    tool,
    { description: `${tool} (demo server "${label}")`, inputSchema: { query: z.string().optional() } },
    async (args) => ({
      content: [{ type: 'text', text: `[${label}] ${tool}(${JSON.stringify(args)})` }],
    }),
  )
}
await server.connect(new StdioServerTransport())
process.stdin.on('close', () => process.exit(0))
