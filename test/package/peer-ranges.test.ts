/**
 * The peer ranges admit every host line users get, under the rule of each
 * installer that checks them:
 * - npm (arborist `dep-valid.js`): `semver.satisfies(version, range, true)` —
 *   loose, prereleases only where a comparator of the same set names the
 *   same `major.minor.patch` with a prerelease;
 * - pnpm (`resolvePeers.ts`, what `dsh plugin add` runs): yarn's
 *   `semverUtils.satisfiesWithPrereleases(version, range, true)` — a Range
 *   built with `{includePrerelease: true, loose: true}`; when that fails,
 *   the version and every comparator are compared again with their
 *   prerelease tags dropped.
 * The table holds real version strings of the host lines (0.1.0-rc.8 is what
 * installs here; the others come from the upstream source and the seeds' peer
 * records).
 */
import assert from 'node:assert/strict'
import { readFileSync } from 'node:fs'
import { describe, it } from 'node:test'
import semver from 'semver'

const pkg = JSON.parse(readFileSync(new URL('../../package.json', import.meta.url), 'utf8')) as {
  peerDependencies: Record<string, string>
}

/** npm's peer check. */
function npmAccepts(version: string, range: string): boolean {
  return semver.satisfies(version, range, true)
}

/** pnpm's peer check (yarn's satisfiesWithPrereleases with loose = true), without mutating a shared Range. */
function pnpmAccepts(version: string, range: string): boolean {
  let r: semver.Range
  let v: semver.SemVer
  try {
    r = new semver.Range(range, { includePrerelease: true, loose: true })
    v = new semver.SemVer(version, { includePrerelease: true, loose: true })
  } catch {
    return false
  }
  if (r.test(v)) return true
  const bare = new semver.SemVer(`${v.major}.${v.minor}.${v.patch}`)
  return r.set.some((set) =>
    set.every((c) => {
      if (c.value === '') return true // the any-version comparator (`*`)
      const base = new semver.SemVer(`${c.semver.major}.${c.semver.minor}.${c.semver.patch}`)
      return new semver.Comparator(`${c.operator}${base.version}`).test(bare)
    }),
  )
}

const HOST_LINES = [
  '0.1.0-rc.8',
  '0.1.0',
  '0.1.1-rc.2',
  '0.1.4-rc.1',
  '0.1.5-rc.2',
  '0.1.6-alpha.2',
  '0.1.9-beta.3',
  '0.2.0-rc.2',
  '0.2.0',
  '0.2.3-rc.1',
  '0.2.9',
]
const OUTSIDE = ['0.0.9', '0.3.0-rc.1', '0.3.0', '1.0.0-rc.1', '1.0.0']

describe('@deepseek-ai/dsh-mcp-client peer range', () => {
  const range = pkg.peerDependencies['@deepseek-ai/dsh-mcp-client']!
  for (const [rule, accepts] of [
    ['npm', npmAccepts],
    ['pnpm', pnpmAccepts],
  ] as const) {
    it(`${rule} accepts every 0.1.x and 0.2.x line`, () => {
      for (const v of HOST_LINES) assert.ok(accepts(v, range), `${rule}: ${v} should satisfy the peer range`)
    })
    it(`${rule} rejects what lies outside`, () => {
      for (const v of OUTSIDE) assert.ok(!accepts(v, range), `${rule}: ${v} should not satisfy the peer range`)
    })
  }
  it('npm rejects a prerelease older than rc.8 (pnpm drops the tag and tolerates it)', () => {
    assert.equal(npmAccepts('0.1.0-rc.7', range), false)
    assert.equal(pnpmAccepts('0.1.0-rc.7', range), true)
  })
  it('sanity: under a bare caret pnpm admits a same-line prerelease, npm does not', () => {
    assert.equal(pnpmAccepts('0.1.1-rc.2', '^0.1.0'), true)
    assert.equal(npmAccepts('0.1.1-rc.2', '^0.1.0'), false)
    assert.equal(pnpmAccepts('0.2.0-rc.2', '^0.1.0'), false)
  })
})

describe('@deepseek-ai/cordis peer range', () => {
  const range = pkg.peerDependencies['@deepseek-ai/cordis']!
  // 4.0.1: vendored by the 0.1.1-rc.2 source; 4.0.4: what rc.8 installs.
  for (const v of ['4.0.1', '4.0.4', '4.1.0']) {
    it(`${v} satisfies it under npm and pnpm`, () => {
      assert.ok(npmAccepts(v, range))
      assert.ok(pnpmAccepts(v, range))
    })
  }
  it('a new major does not', () => {
    assert.ok(!npmAccepts('5.0.0', range))
    assert.ok(!pnpmAccepts('5.0.0-rc.1', range))
  })
})
