/**
 * Resolving a lock entry with npm's own libraries: `pacote` reads the package's manifest from the
 * registry (the exact version a tag or range resolves to today, the tarball integrity as published, its
 * bins) and `@npmcli/arborist` builds the ideal dependency tree of that exact version (no install, no
 * scripts), whose npm-lockfile form becomes the entry's `packages`. Also the newest version for
 * `dsh-mcp outdated`. Imports the pure lock modules (lock/format.ts, lock/spec.ts: the format and target
 * this resolves — the lock's own pure half).
 *
 * Contract: async, network through npm's libraries only, with `npmOptions` (config.ts: the user's npm
 * config, never a project's). `resolveEntry(target, opts)` returns a LockEntry or throws an Error whose
 * message names the package (never a credential). `latestVersion(name, opts)` returns the `latest` tag's
 * version. A scratch directory under the OS temp dir is removed before returning.
 *
 * @module
 */
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs'
import os from 'node:os'
import path from 'node:path'
import { npxBin } from '../lock/check.ts'
import type { LockEntry, LockedPackage } from '../lock/format.ts'
import type { LockTarget } from '../lock/spec.ts'
import { loadNpmLibrary, type NpmOptions } from './config.ts'

const KEPT = [
  'version',
  'integrity',
  'dependencies',
  'optionalDependencies',
  'peerDependencies',
  'bin',
  'optional',
  'os',
  'cpu',
] as const

async function manifestOf(
  spec: string,
  opts: NpmOptions,
): Promise<{ version: string; integrity: string; bin: Record<string, string> }> {
  const pacote = loadNpmLibrary<typeof import('pacote')>('pacote')
  const m = (await pacote.manifest(spec, { ...opts, fullMetadata: false })) as unknown as {
    version: string
    _integrity?: string
    dist?: { integrity?: string }
    bin?: Record<string, string>
  }
  const integrity = m.dist?.integrity ?? m._integrity
  if (!integrity?.startsWith('sha512-'))
    throw new Error(`${spec}: the registry publishes no sha512 integrity for ${m.version}`)
  return { version: m.version, integrity, bin: m.bin ?? {} }
}

function binOf(target: LockTarget, bins: Record<string, string>): string {
  const chosen = npxBin(target.name, bins, target.bin)
  if ('error' in chosen) throw new Error(chosen.error)
  return chosen.bin
}

/** The ideal tree of `name@version` alone, in npm's lockfile shape (location → package). */
async function treeOf(name: string, version: string, opts: NpmOptions): Promise<Record<string, LockedPackage>> {
  const Arborist = loadNpmLibrary<typeof import('@npmcli/arborist')>('@npmcli/arborist')
  const dir = mkdtempSync(path.join(os.tmpdir(), 'dsh-mcp-lock-'))
  try {
    writeFileSync(path.join(dir, 'package.json'), '{"private":true}\n')
    const arb = new Arborist({ ...opts, path: dir, ignoreScripts: true, audit: false, fund: false, save: false })
    const tree = await arb.buildIdealTree({ add: [`${name}@${version}`] })
    const out: Record<string, LockedPackage> = {}
    for (const node of tree.inventory.values()) {
      if (node.isRoot || node.isLink) continue
      const pkg = node.package as Record<string, unknown>
      if (!node.integrity) throw new Error(`${node.name}@${node.version}: the registry publishes no integrity`)
      const entry: Record<string, unknown> = { version: node.version, integrity: node.integrity }
      if (node.optional) entry.optional = true
      for (const k of KEPT)
        if (k !== 'version' && k !== 'integrity' && k !== 'optional' && pkg[k] !== undefined) entry[k] = pkg[k]
      if (typeof pkg.bin === 'string') entry.bin = { [node.name]: pkg.bin }
      if (node.packageName !== path.basename(node.location)) entry.name = node.packageName
      out[node.location] = entry as LockedPackage
    }
    return out
  } finally {
    rmSync(dir, { recursive: true, force: true })
  }
}

export async function resolveEntry(target: LockTarget, opts: NpmOptions): Promise<LockEntry> {
  const m = await manifestOf(`${target.name}@${target.range}`, opts)
  const packages = await treeOf(target.name, m.version, opts)
  const top = packages[`node_modules/${target.name}`]
  if (!top || top.version !== m.version || top.integrity !== m.integrity)
    throw new Error(`${target.name}@${m.version}: the dependency tree does not hold the version the registry named`)
  return {
    runner: target.runner,
    spec: target.spec,
    package: target.name,
    version: m.version,
    integrity: m.integrity,
    bin: binOf(target, m.bin),
    packages,
  }
}

export async function latestVersion(name: string, opts: NpmOptions): Promise<string> {
  return (await manifestOf(`${name}@latest`, opts)).version
}
