/**
 * The writer: locked read-modify-write, atomic replace, nothing written (and
 * no directory left behind) when the edit throws, file modes, refusal of
 * directories and unreadable paths, no lost update among concurrent writers.
 */
import assert from 'node:assert/strict'
import { existsSync, mkdirSync, readdirSync, readFileSync, statSync, symlinkSync, writeFileSync } from 'node:fs'
import { join } from 'node:path'
import { after, describe, test } from 'node:test'
import { updateFile, WriteError, writeFileSafely } from '../../src/files/write.ts'
import { cleanupAll, makeTempDir } from '../support/tmp.ts'

after(cleanupAll)

describe('updateFile', () => {
  test('creates a file with createMode and its parent directories', async () => {
    const dir = makeTempDir()
    const file = dir.join('a', 'b', 'mcp.yml')
    const r = await updateFile(file, (cur) => `${cur ?? ''}x\n`, { createMode: 0o600 })
    assert.deepEqual([r.created, r.changed, r.before, r.after], [true, true, undefined, 'x\n'])
    assert.equal(readFileSync(file, 'utf8'), 'x\n')
    assert.equal(statSync(file).mode & 0o777, 0o600)
    assert.deepEqual(readdirSync(dir.join('a', 'b')), ['mcp.yml'], 'no temp or lock file left')
  })

  test('an existing file keeps its mode; returning undefined or the same text writes nothing', async () => {
    const dir = makeTempDir()
    const file = dir.write('f.yml', 'old\n')
    const { chmodSync } = await import('node:fs')
    chmodSync(file, 0o640)
    const before = statSync(file).mtimeMs
    assert.equal((await updateFile(file, () => undefined)).changed, false)
    assert.equal((await updateFile(file, (c) => c)).changed, false)
    assert.equal(statSync(file).mtimeMs, before)
    await updateFile(file, () => 'new\n', { createMode: 0o600 })
    assert.equal(readFileSync(file, 'utf8'), 'new\n')
    assert.equal(statSync(file).mode & 0o777, 0o640)
  })

  test('a throwing edit writes nothing and removes the directories it created', async () => {
    const dir = makeTempDir()
    const file = dir.join('.dsh', 'mcp.yml')
    await assert.rejects(
      updateFile(file, () => {
        throw new Error('no')
      }),
      /no/,
    )
    assert.equal(existsSync(dir.join('.dsh')), false)
    const kept = dir.write('keep/f.yml', 'same\n')
    await assert.rejects(
      updateFile(kept, () => Promise.reject(new Error('later'))),
      /later/,
    )
    assert.equal(readFileSync(kept, 'utf8'), 'same\n')
    assert.deepEqual(readdirSync(dir.join('keep')), ['f.yml'])
  })

  test('a directory or a symlink loop is refused with a WriteError before the edit runs', async () => {
    const dir = makeTempDir()
    mkdirSync(dir.join('isdir'))
    symlinkSync(dir.join('loop'), dir.join('loop'))
    let ran = false
    for (const [p, msg] of [
      [dir.join('isdir'), /is a directory/],
      [dir.join('loop'), /too many levels of symbolic links/],
    ] as const) {
      await assert.rejects(
        updateFile(p, () => {
          ran = true
          return 'x'
        }),
        (err: unknown) => err instanceof WriteError && msg.test(err.message),
      )
    }
    assert.equal(ran, false)
  })

  test('50 concurrent read-modify-writes in one process lose no update', async () => {
    const dir = makeTempDir()
    const file = dir.join('count.txt')
    await Promise.all(Array.from({ length: 50 }, (_, i) => updateFile(file, (cur) => `${cur ?? ''}${i}\n`)))
    const lines = readFileSync(file, 'utf8').trim().split('\n').map(Number)
    assert.deepEqual(
      [...lines].sort((a, b) => a - b),
      Array.from({ length: 50 }, (_, i) => i),
    )
  })

  test('a lock held by another writer is waited for; a stuck one times out with a clear error', async () => {
    const dir = makeTempDir()
    const file = dir.write('f.txt', '')
    mkdirSync(`${file}.lock`)
    await assert.rejects(
      updateFile(file, () => 'x', { lockWaitMs: 200 }),
      (err: unknown) => err instanceof WriteError && /locked by another writer/.test(err.message),
    )
    assert.equal(readFileSync(file, 'utf8'), '')
  })
})

describe('writeFileSafely', () => {
  test('replaces the whole file and creates parents; refuses a directory', async () => {
    const dir = makeTempDir()
    const file = dir.join('out', 'x.json')
    await writeFileSafely(file, '{}\n')
    assert.equal(readFileSync(file, 'utf8'), '{}\n')
    writeFileSync(file, 'old')
    await writeFileSafely(file, 'new')
    assert.equal(readFileSync(file, 'utf8'), 'new')
    await assert.rejects(writeFileSafely(dir.join('out'), 'x'), WriteError)
    assert.deepEqual(readdirSync(join(dir.path, 'out')), ['x.json'])
  })
})
