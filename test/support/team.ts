/**
 * Helpers for the signed team approvals tests (issue 27 items 5–7): real
 * `ssh-keygen`-made ed25519 keys in temp dirs, a user file listing signers,
 * and `dsh-mcp trust --sign` run as the signer (their own `$DSH_HOME`).
 */
import assert from 'node:assert/strict'
import { execFileSync } from 'node:child_process'
import { readFileSync } from 'node:fs'
import { type CliRun, runCli } from './cli.ts'
import { makeTempDir, type TempDir } from './tmp.ts'

export interface Key {
  /** The private key file. */
  file: string
  /** The `.pub` line. */
  pub: string
}

/** A fresh passphrase-less ed25519 key made by the real ssh-keygen, commented `comment`. */
export function makeKey(dir: TempDir, comment: string): Key {
  const file = dir.join(comment)
  execFileSync('ssh-keygen', ['-q', '-t', 'ed25519', '-N', '', '-C', comment, '-f', file], { stdio: 'ignore' })
  return { file, pub: readFileSync(`${file}.pub`, 'utf8').trim() }
}

/** `$DSH_HOME/mcp.yml` text listing `signers` (label → key) and, optionally, servers. */
export function signersFile(signers: Record<string, Key>, servers?: Record<string, unknown>): string {
  const lines = ['trustedSigners:', ...Object.entries(signers).map(([l, k]) => `  ${l}: ${JSON.stringify(k.pub)}`)]
  if (Object.keys(signers).length === 0) lines[0] = 'trustedSigners: {}'
  return `${lines.join('\n')}\n${servers ? `servers: ${JSON.stringify(servers)}\n` : ''}`
}

/** A signer's own `$DSH_HOME` (they trust and sign with their own store). */
export function signerHome(): TempDir {
  return makeTempDir('dsh-mcp-signer-')
}

/** `dsh-mcp trust --all --yes --sign <key> -C <root>` as the signer. */
export async function signAll(root: string, key: Key, home: TempDir, names: string[] = []): Promise<CliRun> {
  const r = await runCli(['trust', ...(names.length ? names : ['--all']), '--yes', '--sign', key.file, '-C', root], {
    cwd: root,
    dshHome: home.path,
    home: home.path,
  })
  assert.equal(r.code, 0, `trust --sign exited ${r.code}\n${r.stderr}`)
  return r
}
