#!/usr/bin/env node
// dsh-mcp: edit and inspect project-level MCP config. Runs on Node >= 20; imports no host package.
// Runs the bundled CLI (lib/cli-bundle/cli.cjs, built by scripts/bundle-cli.mjs from
// src/cli/program.ts; lib/cli-bundle/list.cjs for `list` without `--check`) through
// bin/load-bundle.js, which keeps a V8 code cache of it per command.
// CommonJS (bin/package.json): an ES entry costs Node its ES loader before any code runs, and an
// ES import of a builtin builds its ES facade, which loads every lazy part of it (`fs` streams, …).
// A reader that goes away (`dsh-mcp list | head -1`) ends the process quietly with status 0, for
// every command: EPIPE on stdout or stderr is not an error worth a stack trace.
'use strict'
const path = require('node:path')
const { loadBundle } = require('./load-bundle.js')

for (const stream of [process.stdout, process.stderr]) {
  stream.on('error', (err) => {
    if (err.code === 'EPIPE') process.exit(0)
    throw err
  })
}

const argv = process.argv.slice(2)
const command = argv.find((a) => !a.startsWith('-'))
// Plain `list` (the command run most) has a bundle of its own, 40% of the full one: no doctor engine, no writer.
const plainList = command === 'list' && !argv.some((a) => a === '--check' || a.startsWith('--check='))
const bundle = loadBundle(
  plainList
    ? path.join(__dirname, '..', 'lib', 'cli-bundle', 'list.cjs')
    : path.join(__dirname, '..', 'lib', 'cli-bundle', 'cli.cjs'),
  command,
)
const { version } = require('../package.json')
bundle.exports.runCli({ argv, version, exit: (code) => process.exit(code) }).then((code) => {
  process.exitCode = code
  // Only a command that succeeded writes the cache: one that failed (a usage error) leaves nothing.
  if (code === 0) bundle.saveCache()
})
