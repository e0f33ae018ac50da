#!/usr/bin/env node
// dsh-mcp: edit and inspect project-level MCP config. Runs on Node >= 20; imports no host package.
import { readFileSync } from 'node:fs'
import { runCli } from '../lib/cli/program.js'

const pkg = JSON.parse(readFileSync(new URL('../package.json', import.meta.url), 'utf8'))
process.exitCode = await runCli({ argv: process.argv.slice(2), version: pkg.version })
