/**
 * The layer trace (plan/trace.ts): every file that defined, overrode,
 * disabled or shadowed a name, strongest first, exactly one deciding step.
 */
import assert from 'node:assert/strict'
import { describe, it } from 'node:test'
import {
  type LayerFile,
  type LayerInput,
  mergeLayers,
  projectLayerFiles,
  userLayerFile,
} from '../../src/config/layers.ts'
import { parseConfigText } from '../../src/config/parse.ts'
import { layerTrace, traceNames } from '../../src/plan/trace.ts'

const [aLocal, aYml] = projectLayerFiles('/r/packages/a') as [LayerFile, LayerFile]
const [, rYml] = projectLayerFiles('/r', {}, 2) as [LayerFile, LayerFile]
const USER = userLayerFile('/home/u/.dsh')

const doc = (layer: LayerFile, d: Record<string, unknown>): LayerInput => ({
  layer,
  parsed: parseConfigText(JSON.stringify(d), {
    file: layer.file,
    format: layer.format,
    allowPartial: layer.scope === 'local',
  }),
})
const brief = (t: ReturnType<typeof layerTrace>) =>
  t.steps.map((s) => `${s.decides ? '>' : ' '}${s.action}:${s.file}${s.level ? `@${s.level}` : ''}`)

describe('layerTrace', () => {
  it('a package disabling a root server that shadows the user one', () => {
    const layers = [
      doc(aYml, { servers: {}, disable: ['memory'] }),
      doc(rYml, { servers: { memory: { command: 'root' } } }),
      doc(USER, { servers: { memory: { command: 'user' } } }),
    ]
    const t = layerTrace('memory', mergeLayers(layers), layers)
    assert.equal(t.outcome, 'disabled')
    assert.deepEqual(brief(t), [
      '>disables:/r/packages/a/.dsh/mcp.yml',
      ' defines:/r/.dsh/mcp.yml@2',
      ' shadowed:/home/u/.dsh/mcp.yml',
    ])
    assert.equal(t.steps[0]!.applies, true)
    assert.equal(t.steps[2]!.by, '/r/.dsh/mcp.yml')
  })
  it('a local override and the winner it merges onto; a disable: that cannot apply', () => {
    const layers = [
      doc(aLocal, { servers: { s: { env: { A: 'x' } } } }),
      doc(aYml, { servers: { s: { command: 'a' } }, disable: ['s'] }),
      doc(rYml, { servers: { s: { command: 'root' } } }),
    ]
    const t = layerTrace('s', mergeLayers(layers), layers)
    assert.equal(t.outcome, 'active')
    assert.deepEqual(brief(t), [
      ' overrides:/r/packages/a/.dsh/mcp.local.yml',
      ' disables:/r/packages/a/.dsh/mcp.yml',
      '>defines:/r/packages/a/.dsh/mcp.yml',
      ' shadowed:/r/.dsh/mcp.yml@2',
    ])
    assert.deepEqual(t.steps[0]!.keys, ['env'])
    assert.equal(t.steps[1]!.applies, false)
    assert.ok(!JSON.stringify(t).includes('"x"'), 'no value travels')
  })
  it('enabled: false is the winner deciding; an unknown name has no steps', () => {
    const layers = [doc(aYml, { servers: { s: { command: 'a', enabled: false } } })]
    const rows = mergeLayers(layers)
    const t = layerTrace('s', rows, layers)
    assert.equal(t.steps[0]!.note, 'enabled: false')
    assert.equal(t.steps[0]!.decides, true)
    assert.deepEqual(layerTrace('nope', rows, layers), { name: 'nope', outcome: 'none', steps: [] })
    assert.deepEqual(traceNames(rows), ['s'])
  })
})
