/**
 * Records the tool catalogs of real MCP server packages into bench/catalogs/<server>.json (name,
 * description, input schema exactly as `tools/list` returned them), for the retrieval benchmark
 * (bench/rows/13-tool-search.ts). Not run by `npm run bench`: run it by hand after installing the packages,
 * `node bench/catalogs/record.ts <dir-with-node_modules>...` — each package's bin is started over stdio with
 * placeholder credentials (listing tools needs none) and stopped after `tools/list`.
 */
import { readFileSync, writeFileSync, existsSync } from 'node:fs'
import path from 'node:path'
import { fileURLToPath } from 'node:url'
import { Client } from '@modelcontextprotocol/sdk/client/index.js'
import { StdioClientTransport } from '@modelcontextprotocol/sdk/client/stdio.js'

const here = path.dirname(fileURLToPath(import.meta.url))

const PACKAGES: Record<string, { pkg: string; args?: string[]; env?: Record<string, string> }> = {
  memory: { pkg: '@modelcontextprotocol/server-memory' },
  filesystem: { pkg: '@modelcontextprotocol/server-filesystem', args: ['/tmp'] },
  everything: { pkg: '@modelcontextprotocol/server-everything', args: ['stdio'] },
  github: { pkg: '@modelcontextprotocol/server-github', env: { GITHUB_PERSONAL_ACCESS_TOKEN: 'placeholder' } },
  gitlab: { pkg: '@modelcontextprotocol/server-gitlab', env: { GITLAB_PERSONAL_ACCESS_TOKEN: 'placeholder' } },
  slack: { pkg: '@modelcontextprotocol/server-slack', env: { SLACK_BOT_TOKEN: 'placeholder', SLACK_TEAM_ID: 'T0' } },
  'google-maps': { pkg: '@modelcontextprotocol/server-google-maps', env: { GOOGLE_MAPS_API_KEY: 'placeholder' } },
  'brave-search': { pkg: '@modelcontextprotocol/server-brave-search', env: { BRAVE_API_KEY: 'placeholder' } },
  'sequential-thinking': { pkg: '@modelcontextprotocol/server-sequential-thinking' },
  puppeteer: { pkg: '@modelcontextprotocol/server-puppeteer' },
  postgres: { pkg: '@modelcontextprotocol/server-postgres', args: ['postgresql://localhost/placeholder'] },
}

function entry(dirs: string[], pkg: string): { script: string; version: string } | undefined {
  for (const dir of dirs) {
    const root = path.join(dir, 'node_modules', pkg)
    if (!existsSync(path.join(root, 'package.json'))) continue
    const m = JSON.parse(readFileSync(path.join(root, 'package.json'), 'utf8')) as {
      version: string
      bin?: string | Record<string, string>
    }
    const bin = typeof m.bin === 'string' ? m.bin : Object.values(m.bin ?? {})[0]
    if (bin) return { script: path.join(root, bin), version: m.version }
  }
  return undefined
}

const dirs = process.argv.slice(2)
for (const [server, p] of Object.entries(PACKAGES)) {
  const found = entry(dirs, p.pkg)
  if (!found) {
    console.log(`${server}: ${p.pkg} not installed in the given folders`)
    continue
  }
  const transport = new StdioClientTransport({
    command: process.execPath,
    args: [found.script, ...(p.args ?? [])],
    env: { PATH: process.env.PATH ?? '', HOME: process.env.HOME ?? '/tmp', ...p.env },
    stderr: 'ignore',
  })
  const client = new Client({ name: 'catalog-recorder', version: '1' })
  try {
    await client.connect(transport)
    const { tools } = await client.listTools()
    const out = {
      server,
      package: p.pkg,
      version: found.version,
      tools: tools.map((t) => ({ name: t.name, description: t.description ?? '', inputSchema: t.inputSchema })),
    }
    writeFileSync(path.join(here, `${server}.json`), `${JSON.stringify(out, null, 2)}\n`)
    console.log(`${server}: ${tools.length} tools (${p.pkg}@${found.version})`)
  } catch (err) {
    console.log(`${server}: failed: ${(err as Error).message}`)
  } finally {
    await client.close().catch(() => {})
  }
}
