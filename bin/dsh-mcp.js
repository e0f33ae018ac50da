#!/usr/bin/env node
// dsh-mcp: edit and inspect project-level MCP config. Runs on Node >= 20; imports no host package.
// Runs the bundled CLI (lib/cli-bundle/, built by scripts/bundle-cli.mjs from src/cli/program.ts).
// A reader that goes away (`dsh-mcp list | head -1`) ends the process quietly with status 0, for
// every command: EPIPE on stdout or stderr is not an error worth a stack trace.
import { readFileSync } from 'node:fs'
import { enablePrivateCompileCache } from './compile-cache.js'

// Node >= 22.1 caches compiled code across runs, in a directory of this user's only (compile-cache.js).
enablePrivateCompileCache()

for (const stream of [process.stdout, process.stderr]) {
  stream.on('error', (err) => {
    if (err.code === 'EPIPE') process.exit(0)
    throw err
  })
}

const { runCli } = await import('../lib/cli-bundle/program.js')
const pkg = JSON.parse(readFileSync(new URL('../package.json', import.meta.url), 'utf8'))
process.exitCode = await runCli({ argv: process.argv.slice(2), version: pkg.version })
