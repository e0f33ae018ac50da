/**
 * Documentation integrity: every guide page has its Chinese twin (and the
 * twin has the same section structure), and every relative link in every
 * Markdown file of the repository resolves to a file that exists.
 */
import assert from 'node:assert/strict'
import { existsSync, readdirSync, readFileSync, statSync } from 'node:fs'
import path from 'node:path'
import { test } from 'node:test'
import { fileURLToPath } from 'node:url'

const root = fileURLToPath(new URL('../..', import.meta.url))

function markdownFiles(dir: string): string[] {
  const out: string[] = []
  for (const name of readdirSync(dir)) {
    if (name === 'node_modules' || name.startsWith('.') || name === 'lib') continue
    const full = path.join(dir, name)
    if (statSync(full).isDirectory()) out.push(...markdownFiles(full))
    else if (name.endsWith('.md')) out.push(full)
  }
  return out
}

function headingLevels(text: string): string {
  return text
    .split('\n')
    .filter((l) => /^#{1,6} /.test(l))
    .map((l) => l.match(/^#+/)![0].length)
    .join(',')
}

test('every guide page has a .zh.md twin with the same heading structure', () => {
  const guide = path.join(root, 'docs', 'guide')
  const pages = readdirSync(guide).filter((f) => f.endsWith('.md') && !f.endsWith('.zh.md'))
  assert.ok(pages.length >= 7, `expected the seven guide pages, found ${pages.join(', ')}`)
  for (const required of ['format', 'layers', 'cli', 'visibility', 'trust', 'status', 'reliability']) {
    assert.ok(pages.includes(`${required}.md`), `docs/guide/${required}.md is missing`)
  }
  for (const page of [...pages, '../../README.md']) {
    const en = path.join(guide, page)
    const zh = en.replace(/\.md$/, '.zh.md')
    assert.ok(existsSync(zh), `${path.relative(root, en)} has no twin ${path.relative(root, zh)}`)
    assert.equal(
      headingLevels(readFileSync(zh, 'utf8')),
      headingLevels(readFileSync(en, 'utf8')),
      `${path.relative(root, zh)} does not follow the sections of its twin`,
    )
  }
})

test('every relative link in the Markdown files resolves', () => {
  const broken: string[] = []
  for (const file of markdownFiles(root)) {
    const text = readFileSync(file, 'utf8').replace(/```[\s\S]*?```/g, '')
    for (const m of text.matchAll(/\[[^\]]*\]\(([^)\s]+)\)/g)) {
      const target = m[1]!
      if (/^[a-z]+:/i.test(target) || target.startsWith('#')) continue
      const resolved = path.resolve(path.dirname(file), decodeURIComponent(target.split('#')[0]!))
      if (!existsSync(resolved)) broken.push(`${path.relative(root, file)} → ${target}`)
    }
  }
  assert.deepEqual(broken, [])
})
