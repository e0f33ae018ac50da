/**
 * `enable` / `disable`: where the switch is written (docs/guide/cli.md).
 *
 * Contract: without `-s`, a server whose row comes from a committed file
 * (project or legacy scope) is switched in `.dsh/mcp.local.yml` — `disable`
 * writes a partial `enabled: false` override there, `enable` removes that
 * override's `enabled` (the whole override when nothing else is left), or
 * writes `enabled: true` there when the committed file itself says `false`.
 * A local or user row is switched in its own file, by deleting
 * `enabled: false` (enable) or writing it (disable). With `-s`, that scope's
 * file is edited directly. A server already in the asked state changes
 * nothing (exit 0).
 *
 * @module
 */
import type { LayerFile, Row } from '../config/layers.ts'
import type { ConfigEditor } from '../files/editor.ts'
import { isRecord } from '../config/guards.ts'
import { failure } from './errors.ts'
import { definingLayers, inScope, load, notFound, ownEntry, requireReadable, winnerOf } from './locate.ts'
import type { CliContext } from './program.ts'
import { editTarget, label, scopeLayer, type WriteScope } from './target.ts'

function isEmptyEntry(value: unknown): boolean {
  return value === null || value === undefined || (isRecord(value) && Object.keys(value).length === 0)
}

/** Remove `enabled` from the entry; drop the entry when it was a bare override. */
function clearEnabled(editor: ConfigEditor, name: string, dropEmpty: boolean): void {
  editor.deleteField(name, 'enabled')
  if (dropEmpty && isEmptyEntry(editor.get(name))) editor.delete(name)
}

const committed = (row: Pick<Row, 'scope'>) => row.scope === 'project' || row.scope === 'legacy'

export async function toggle(
  cli: CliContext,
  name: string,
  want: boolean,
  scope: WriteScope | undefined,
): Promise<number> {
  const view = load(cli)
  const root = view.root.root
  const show = (f: string) => label(cli, root, f)
  const localLayer = scopeLayer(root, 'local', cli.loc.dshHome)
  const winner = winnerOf(view, name)
  const verb = want ? 'Enabled' : 'Disabled'
  const layerAt = (file: string): LayerFile => view.layers.find((l) => l.layer.file === file)!.layer
  const done = (file: string, extra = '') => cli.out.err(`${verb} "${name}" in ${show(file)}${extra}`)

  if (scope) {
    const { files, hit } = inScope(cli, view, name, scope)
    if (!hit && !(scope === 'local' && winner)) throw notFound(view, name, files.map((f) => show(f.file)).join(' or '))
    const layer: LayerFile = hit?.layer ?? localLayer
    const own = hit?.parsed.entries.find((e) => e.name === name)
    const partial = own?.partial ?? true
    if (want) {
      if (own?.entry?.enabled !== false) {
        // -s local on a server disabled by its committed file: switch it on locally.
        if (scope === 'local' && winner?.state === 'disabled' && committed(winner))
          return write(layer, (e) => e.setField(name, 'enabled', true))
        cli.out.err(`"${name}" is not disabled in ${show(layer.file)}; nothing changed`)
        return 0
      }
      return write(layer, (e) => clearEnabled(e, name, layer.scope === 'local' && partial))
    }
    if (own?.entry?.enabled === false) {
      cli.out.err(`"${name}" is already disabled in ${show(layer.file)}; nothing changed`)
      return 0
    }
    return write(layer, (e) => e.setField(name, 'enabled', false))
  }

  requireReadable(cli, view, definingLayers(view, name)[0]?.layer.rank)
  if (!winner) throw notFound(view, name)
  const isOn = winner.state !== 'disabled'
  if (isOn === want) {
    cli.out.err(`"${name}" is already ${want ? 'enabled' : 'disabled'}; nothing changed`)
    return 0
  }
  const own = ownEntry(view, winner.file, name)
  const override = winner.overriddenBy ? ownEntry(view, winner.overriddenBy, name) : undefined
  if (!want) {
    if (committed(winner))
      return write(localLayer, (e) => e.setField(name, 'enabled', false), `; ${show(winner.file)} is unchanged`)
    return write(layerAt(winner.file), (e) => e.setField(name, 'enabled', false))
  }
  // Enable: undo every `enabled: false` that applies, preferring the local file for committed rows.
  const ownOff = own?.entry?.enabled === false
  if (override?.entry?.enabled === false || (ownOff && committed(winner))) {
    await write(localLayer, (e) => {
      if (ownOff && committed(winner)) e.setField(name, 'enabled', true)
      else clearEnabled(e, name, true)
    })
  }
  if (ownOff && !committed(winner)) await write(layerAt(winner.file), (e) => clearEnabled(e, name, false))
  return 0

  async function write(layer: LayerFile, change: (e: ConfigEditor) => void, extra = ''): Promise<number> {
    const outcome = await editTarget(cli, root, layer, (editor) => {
      if (!editor.has(name) && layer.scope !== 'local')
        throw failure(`"${name}" is no longer in ${show(layer.file)}; nothing changed`)
      change(editor)
    })
    done(layer.file, outcome.changed ? extra : '; nothing changed')
    return 0
  }
}
