#!/usr/bin/env node
// dsh-mcp: edit and inspect project-level MCP config. Runs on Node >= 20; imports no host package.
// Runs the bundled CLI (lib/cli-bundle/cli.cjs, built by scripts/bundle-cli.mjs from
// src/cli/program.ts) through bin/load-bundle.js, which keeps a V8 code cache of it per command.
// A reader that goes away (`dsh-mcp list | head -1`) ends the process quietly with status 0, for
// every command: EPIPE on stdout or stderr is not an error worth a stack trace.
import module from 'node:module'
import { loadBundle } from './load-bundle.js'

// `require`, not `import … from`: an ES import of a builtin builds its ES facade (see load-bundle.js).
const require = module.createRequire(import.meta.url)
const { fileURLToPath } = require('node:url')

for (const stream of [process.stdout, process.stderr]) {
  stream.on('error', (err) => {
    if (err.code === 'EPIPE') process.exit(0)
    throw err
  })
}

const argv = process.argv.slice(2)
const bundle = loadBundle(fileURLToPath(new URL('../lib/cli-bundle/cli.cjs', import.meta.url)), argv.find((a) => !a.startsWith('-')))
const { version } = require('../package.json')
process.exitCode = await bundle.exports.runCli({ argv, version })
bundle.saveCache()
