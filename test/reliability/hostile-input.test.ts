/**
 * Hostile input through a real host: oversized, alias-bomb, bracket-bomb,
 * deeply nested and 10,000-server files, 50,000+ keys in one mapping,
 * thousands of problems in one entry or file (reported 20 per entry and
 * counted, the log bounded), env
 * values with newlines and NULs, server and tool names that collide once
 * normalised, and a `cwd` that leaves the project. Each is refused (with a
 * `file:line:col` line, the last good generation kept) or handled, with a
 * measured, bounded growth of peak memory (their CPU cost is bench row 8).
 *
 * Decisions: a file over 1 MiB, more than 100 aliases or alias expansions,
 * more than 50,000 values (in its text or once its aliases expand), nesting
 * deeper than 64 and more than 256 servers in one file are refused as a
 * whole; deep nesting inside one entry costs only that entry; a NUL is
 * refused wherever it would reach a process or request; a newline in an env
 * value is data and reaches the server intact; `cwd: ../../..` is resolved
 * against the project root, runs there, and is shown resolved by `get`
 * (and the trust review) before anyone trusts it.
 */
import assert from 'node:assert/strict'
import { writeFileSync } from 'node:fs'
import path from 'node:path'
import { test } from 'node:test'
import { execTool, mcpToolNames, resultText, waitFor } from '../support/host.ts'
import { readMarker } from '../support/procs.ts'
import { friendly, projectWith, type RuntimeWorld, stdioEntry } from '../support/runtime.ts'
import { runCli } from '../support/cli.ts'
import { cpuMsOf, statesOf, untilTools, useFaultWorld } from '../support/faults.ts'

let w: RuntimeWorld
useFaultWorld({ trust: 'all', debounceMs: 30 }, (world) => {
  w = world
})

const MiB = 1024 * 1024
const maxRssBytes = () => process.resourceUsage().maxRSS * 1024

function aliasBomb(): string {
  const lines = ['a0: &a0 ["lol","lol","lol","lol","lol","lol","lol","lol","lol"]']
  for (let i = 1; i < 9; i++)
    lines.push(
      `a${i}: &a${i} [${Array(9)
        .fill(`*a${i - 1}`)
        .join(',')}]`,
    )
  return `${lines.join('\n')}\nservers:\n  x: {command: node, args: *a8}\n`
}

function sharedList(): string {
  let t = `servers:\n  s0:\n    command: x\n    args: &big [${Array(45_000).fill('a').join(',')}]\n`
  for (let i = 1; i <= 99; i++) t += `  s${i}: {command: x, args: *big}\n`
  return t
}

function manyServers(n: number): string {
  let t = 'servers:\n'
  for (let i = 0; i < n; i++) t += `  s${i}: {command: node, args: [s${i}.js]}\n`
  return t
}

const HOSTILE: { name: string; text: () => string; problem: RegExp }[] = [
  {
    name: '10 MiB file',
    text: () => `servers: {}\n# ${'x'.repeat(10 * MiB)}\n`,
    problem: /10\.0 MiB; config files are limited to 1024 KiB/,
  },
  { name: 'alias bomb (9^9 expansions)', text: aliasBomb, problem: /too many alias expansions/ },
  {
    name: 'bracket bomb (100,000 open brackets)',
    text: () => `servers: ${'['.repeat(100_000)}\n`,
    problem: /nested more than 64 levels deep/,
  },
  {
    name: '5,000 servers in one file',
    text: () => manyServers(5_000),
    problem: /defines 5000 servers; a config file may define at most 256/,
  },
  // ~1 MiB of short nested lists: half a million nodes, which took the parser 8-12 s of CPU before the pre-scan.
  // Each alias once made the parser re-walk the whole document: 10,000 of them cost 50-200 s of CPU.
  {
    name: 'aliases by the thousand (10,000 × *a)',
    text: () =>
      `servers:\n  a:\n    command: &a x\n    env: {${Array.from({ length: 10_000 }, (_, i) => `K${i}: v`).join(', ')}}\n    args: [${'*a,'.repeat(10_000)}*a]\n`,
    problem: /more than 100 aliases \("\*name"\); refusing a possible alias bomb/,
  },
  // Within 100 aliases and 50,000 values of text, yet 4.5 million values once expanded (5 s of checks).
  {
    name: 'a list of 45,000 shared by 99 aliases',
    text: sharedList,
    problem: /expands through aliases to more than 50000 values/,
  },
  {
    name: 'nested lists (58,000 × [[[[[[[[1]]]]]]]])',
    text: () => `servers:\n  a:\n    command: x\n    args: [${'[[[[[[[[1]]]]]]]],'.repeat(58_000)}1]\n`,
    problem: /holds more than 50000 values .*refusing to parse it/,
  },
]

test('hostile files are refused: last good kept, peak memory bounded, nothing thrown', async (t) => {
  const marker = w.home.join('marker-h.log')
  const keep = stdioEntry('h', { tools: ['k'], marker, pidfileDir: w.pids })
  const a = projectWith({ h: keep })
  const file = a.join('.dsh', 'mcp.yml')
  const agent = (await w.host.createAgent({ cwd: a.path })).agent
  await w.mcp.whenIdle()
  let round = 0
  for (const c of HOSTILE) {
    const text = c.text()
    const rss0 = maxRssBytes()
    const t0 = performance.now()
    const cpu0 = cpuMsOf()
    writeFileSync(file, text)
    await waitFor(() => w.host.logsMatching(file).some((l) => c.problem.test(l.text)), {
      intervalMs: 5,
      message: `${c.name} is reported`,
    })
    const ms = performance.now() - t0
    const cpu = cpuMsOf() - cpu0
    await w.mcp.whenIdle()
    const grew = (maxRssBytes() - rss0) / MiB
    t.diagnostic(
      `${c.name}: ${(text.length / MiB).toFixed(2)} MiB of text, refused in ${Math.round(ms)} ms (${Math.round(cpu)} ms CPU), peak RSS +${grew.toFixed(1)} MiB`,
    )
    // The CPU this costs is bench row 8 (i)-(l); here the behaviour: refused, last good kept, memory bounded.
    assert.ok(grew < 256, `${c.name}: peak RSS grew by ${grew.toFixed(1)} MiB`)
    assert.deepEqual(
      mcpToolNames(w.host.ctx, agent),
      ['mcp__h__k'],
      `${c.name}: the last good generation stays mounted`,
    )
    // Restore the good file (plus a disabled row, so the restore is observable without a process).
    writeFileSync(file, friendly({ h: keep, [`r${++round}`]: { command: 'node', enabled: false } }))
    await waitFor(() => statesOf(w, a.path)[`r${round}`] === 'disabled', { message: `restore after ${c.name}` })
  }
  assert.equal(readMarker(marker).length, 1, 'the working server was never restarted')
})

test('deep nesting inside one entry and 45,000 keys in one mapping cost only their entry', async (t) => {
  const a = projectWith({ ok: stdioEntry('ok2', { tools: ['o'], pidfileDir: w.pids }) })
  const file = a.join('.dsh', 'mcp.yml')
  const agent = (await w.host.createAgent({ cwd: a.path })).agent
  await w.mcp.whenIdle()
  let deep = '    env:\n'
  for (let i = 0; i < 200; i++) deep += `${'  '.repeat(i + 3)}k${i}:\n`
  let keys = ''
  for (let i = 0; i < 45_000; i++) keys += `      K${i}: v\n`
  const body = `servers:\n  ok: ${JSON.stringify(stdioEntry('ok2', { tools: ['o'], pidfileDir: w.pids }))}\n  deep:\n    command: node\n${deep}  wide:\n    command: node\n    enabled: false\n    env:\n${keys}`
  const rss0 = maxRssBytes()
  const t0 = performance.now()
  const cpu0 = cpuMsOf()
  writeFileSync(file, body)
  await waitFor(() => statesOf(w, a.path).deep === 'invalid' && statesOf(w, a.path).wide === 'disabled', {
    intervalMs: 5,
    message: 'the file is read',
  })
  const ms = performance.now() - t0
  const cpu = cpuMsOf() - cpu0
  const grew = (maxRssBytes() - rss0) / MiB
  t.diagnostic(
    `${(body.length / MiB).toFixed(2)} MiB with a 200-deep entry and ${keys.split('\n').length - 1} keys: read in ${Math.round(ms)} ms (${Math.round(cpu)} ms CPU), peak RSS +${grew.toFixed(1)} MiB`,
  )
  // Its CPU bound (3 s; the quadratic duplicate-key check once took ~8 s) is bench row 8 (i): timing is not asserted here.
  assert.ok(grew < 256)
  const deepRow = w.mcp
    .snapshot()
    .projects.find((p) => p.root === a.path)!
    .servers.find((s) => s.name === 'deep')!
  assert.match(deepRow.lastError ?? '', /mcp\.yml:\d+:\d+: error: .*nested more than 64 levels deep/)
  await w.mcp.whenIdle()
  assert.deepEqual(mcpToolNames(w.host.ctx, agent), ['mcp__ok__o'], 'the sound entry beside them mounts')
})

// Each unknown key once cost a scan of its whole mapping to find its position: 45,000 of them took 12-40 s of CPU.
const UNKNOWN_KEYS: { name: string; text: (ok: string) => string }[] = [
  {
    name: '45,000 unknown keys in one entry',
    text: (sound) =>
      `servers:\n  sound: ${sound}\n  wide:\n    command: node\n    enabled: false\n${keyLines(45_000, '    ')}`,
  },
  {
    name: '45,000 unknown keys in "reconnect"',
    text: (sound) =>
      `servers:\n  sound: ${sound}\n  wide:\n    command: node\n    enabled: false\n    reconnect:\n${keyLines(45_000, '      ')}`,
  },
  {
    name: '45,000 unknown top-level keys',
    text: (sound) => `servers:\n  sound: ${sound}\n  wide: {command: node, enabled: false}\n${keyLines(45_000, '')}`,
  },
  {
    name: '24,000 bad arguments',
    text: (sound) =>
      `servers:\n  sound: ${sound}\n  wide:\n    command: node\n    args: [${Array(24_000).fill('{}').join(',')}]\n`,
  },
]

function keyLines(n: number, indent: string): string {
  let out = ''
  for (let i = 0; i < n; i++) out += `${indent}k${i}: 1\n`
  return out
}

test('thousands of problems in one file log 20 per entry plus a count', async (t) => {
  const ok = stdioEntry('ok3', { tools: ['o'], pidfileDir: w.pids })
  const a = projectWith({ sound: ok })
  const file = a.join('.dsh', 'mcp.yml')
  const agent = (await w.host.createAgent({ cwd: a.path })).agent
  await w.mcp.whenIdle()
  for (const c of UNKNOWN_KEYS) {
    const text = c.text(JSON.stringify(ok))
    const cpu0 = cpuMsOf()
    const logged = w.host.logsMatching(file).length
    writeFileSync(file, text)
    await waitFor(
      () =>
        w.host
          .logsMatching(file)
          .slice(logged)
          .some((l) => /more problems not listed/.test(l.text)),
      { intervalMs: 5, message: `${c.name} is reported with a count of the problems not listed` },
    )
    const cpu = cpuMsOf() - cpu0
    await w.mcp.whenIdle()
    const lines = w.host
      .logsMatching(file)
      .slice(logged)
      .flatMap((l) => l.text.split('\n'))
    t.diagnostic(
      `${c.name}: ${(text.length / MiB).toFixed(2)} MiB, read with ${Math.round(cpu)} ms of CPU, ${lines.length} lines logged`,
    )
    // 12-40 s of CPU before; the 3 s target is bench row 8 (l): here the bounded report.
    assert.ok(lines.length <= 25, `${c.name}: ${lines.length} lines logged`)
    assert.ok(
      lines.some((l) => /: (warning|error): .*\d+ more problems not listed/.test(l)),
      `${c.name}: the count is logged`,
    )
    assert.deepEqual(
      mcpToolNames(w.host.ctx, agent),
      ['mcp__sound__o'],
      `${c.name}: the sound entry beside it stays mounted`,
    )
  }
  // 200 entries of 21 problems each: one read logs 50 lines and a count, not 4,200.
  let many = `servers:\n  sound: ${JSON.stringify(ok)}\n`
  for (let i = 0; i < 200; i++) many += `  s${i}:\n    command: node\n    enabled: false\n${keyLines(21, '    ')}`
  const logged = w.host.logsMatching(file).length
  writeFileSync(file, many)
  await waitFor(
    () =>
      w.host
        .logsMatching(file)
        .slice(logged)
        .some((l) => /more problems not logged/.test(l.text)),
    { message: 'a file of 4,200 problems is logged with a count of those not logged' },
  )
  const lines = w.host
    .logsMatching(file)
    .slice(logged)
    .flatMap((l) => l.text.split('\n'))
  assert.equal(lines.length, 51, 'the first 50 problems and one line counting the rest')
  assert.match(lines[50]!, /mcp\.yml: 4150 more problems not logged; `dsh-mcp validate` lists them$/)
})

test('env values: a newline is data and reaches the server intact; a NUL is refused and never logged', async () => {
  const canary = 'nul-canary-7f3a'
  const args = (n: string) => stdioEntry(n, { tools: ['echo'], extraArgs: ['--echo-env', 'V'] }).args
  const text = [
    'servers:',
    '  nl:',
    `    command: ${JSON.stringify(process.execPath)}`,
    `    args: ${JSON.stringify(args('nl'))}`,
    '    env:',
    '      V: "line one\\nline two\\r\\nline three"',
    '  nul:',
    `    command: ${JSON.stringify(process.execPath)}`,
    `    args: ${JSON.stringify(args('nul'))}`,
    '    env:',
    `      V: "before\\0${canary}"`,
    '  nularg:',
    `    command: ${JSON.stringify(process.execPath)}`,
    `    args: ["x\\0${canary}"]`,
    '',
  ].join('\n')
  const a = projectWith({}, { '.dsh/mcp.yml': text })
  const agent = (await w.host.createAgent({ cwd: a.path })).agent
  await w.mcp.whenIdle()
  assert.deepEqual(mcpToolNames(w.host.ctx, agent), ['mcp__nl__echo', 'mcp__nl__echo_env'])
  assert.equal(
    resultText(await execTool(w.host.ctx, agent, 'mcp__nl__echo_env', {})),
    '[nl] env V=line one\nline two\r\nline three',
  )
  const states = statesOf(w, a.path)
  assert.equal(states.nul, 'invalid')
  assert.equal(states.nularg, 'invalid')
  const servers = w.mcp.snapshot().projects.find((p) => p.root === a.path)!.servers
  assert.match(servers.find((s) => s.name === 'nul')!.lastError ?? '', /servers\.nul\.env\.V: contains a NUL character/)
  assert.match(
    servers.find((s) => s.name === 'nularg')!.lastError ?? '',
    /servers\.nularg\.args\[0\]: contains a NUL character/,
  )
  const all = w.host.logs.map((l) => l.text).join('\n')
  assert.ok(!all.includes(canary), 'the value next to the NUL never reaches a log line')
})

test('a header value that gains a line break from its variable is skipped, naming the field, never the value', async () => {
  process.env.DSH_MCP_REL_HDR = 'Bearer hdr-canary-19c\r\nX-Evil: 1'
  try {
    const a = projectWith({
      web: { url: 'http://127.0.0.1:9/mcp', headers: { Authorization: '$'.concat('{DSH_MCP_REL_HDR}') } },
    })
    await w.host.createAgent({ cwd: a.path })
    await w.mcp.whenIdle()
    const row = w.mcp
      .snapshot()
      .projects.find((p) => p.root === a.path)!
      .servers.find((s) => s.name === 'web')!
    assert.equal(row.state, 'skipped')
    assert.match(row.lastError ?? '', /headers\.Authorization contains a line break .* once its variables are expanded/)
    assert.ok(!w.host.logs.some((l) => l.text.includes('hdr-canary-19c')))
  } finally {
    delete process.env.DSH_MCP_REL_HDR
  }
})

test('server and tool names that collide once normalised stay distinct: each call reaches its own server', async () => {
  const entry = (label: string, tools: string[]) => stdioEntry(label, { tools, label, pidfileDir: w.pids })
  const a = projectWith({
    Docs: entry('Docs', ['q']),
    docs: entry('docs', ['q']),
    'my-srv': entry('my-srv', ['q']),
    my_srv: entry('my_srv', ['q']),
    a: entry('a', ['b__x']),
    a__b: entry('a__b', ['x']),
    dots: entry('dots', ['get.item', 'get_item']),
  })
  const agent = (await w.host.createAgent({ cwd: a.path })).agent
  await w.mcp.whenIdle()
  const names = mcpToolNames(w.host.ctx, agent)
  assert.equal(names.length, 8, `eight distinct tools: ${names.join(', ')}`)
  assert.equal(new Set(names).size, 8)
  const answers = new Set<string>()
  for (const n of names) {
    const r = await execTool(w.host.ctx, agent, n, n.endsWith('__x') || n.includes('b__x') ? {} : { k: 1 })
    assert.equal(r.isError, false, `${n}: ${resultText(r)}`)
    answers.add(`${n} → ${/^\[([^\]]+)\] ([^:]+)/.exec(resultText(r))?.slice(1).join(' ')}`)
  }
  const servers = [...answers].map((x) => x.split(' → ')[1]!.split(' ')[0])
  assert.deepEqual(
    [...new Set(servers)].sort(),
    ['Docs', 'a', 'a__b', 'docs', 'dots', 'my-srv', 'my_srv'],
    [...answers].join('\n'),
  )
  const effective = w.mcp
    .snapshot()
    .projects.find((p) => p.root === a.path)!
    .servers.map((s) => s.effectiveName)
  assert.equal(new Set(effective).size, 7, `effective names: ${effective.join(', ')}`)
})

test('cwd: ../../.. is resolved against the project root, runs there, and get shows where', async () => {
  const a = projectWith({ up: stdioEntry('up', { tools: ['cwd'], pidfileDir: w.pids, extra: { cwd: '../../..' } }) })
  const agent = (await w.host.createAgent({ cwd: a.path })).agent
  await untilTools(w, agent, ['mcp__up__cwd'], 'mounts')
  const where = path.resolve(a.path, '../../..')
  assert.equal(resultText(await execTool(w.host.ctx, agent, 'mcp__up__cwd', {})), `[up] cwd: ${where}`)
  const get = await runCli(['get', 'up'], { cwd: a.path, dshHome: w.home.path })
  assert.equal(get.code, 0, get.stderr)
  assert.match(get.stdout, new RegExp(`cwd:\\s+${where.replace(/[/.]/g, '\\$&')}\\n`))
  const review = await runCli(['trust', 'up', '--yes'], { cwd: a.path, dshHome: w.home.path })
  assert.match(
    review.stdout,
    new RegExp(`cwd:\\s+${where.replace(/[/.]/g, '\\$&')}\\n`),
    'the trust review shows the resolved directory',
  )
})

test('tools filters match raw names that only survive normalised (get.item → mcp__s__get_item_<hash>)', async () => {
  const a = projectWith({
    ex: stdioEntry('ex', {
      tools: ['get.item', 'get_item', 'list.all', 'keep'],
      pidfileDir: w.pids,
      extra: { tools: { exclude: ['get.item', 'list.*'] } },
    }),
    inc: stdioEntry('inc', {
      tools: ['get.item', 'other'],
      pidfileDir: w.pids,
      extra: { tools: { include: ['get.item'] } },
    }),
  })
  const agent = (await w.host.createAgent({ cwd: a.path })).agent
  await w.mcp.whenIdle()
  const names = mcpToolNames(w.host.ctx, agent)
  assert.deepEqual(
    names.filter((n) => n.startsWith('mcp__ex__')),
    ['mcp__ex__get_item', 'mcp__ex__keep'],
    'exclude hides get.item and list.all, not get_item',
  )
  assert.equal(names.filter((n) => n.startsWith('mcp__inc__')).length, 1, 'include keeps get.item only')
  assert.match(names.find((n) => n.startsWith('mcp__inc__'))!, /^mcp__inc__get_item_[0-9a-f]{12}$/)
})
