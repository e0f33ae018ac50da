/** `$DSH_HOME`: the variable resolved to an absolute path, else `<home>/.dsh`. */
import assert from 'node:assert/strict'
import path from 'node:path'
import { test } from 'node:test'
import { dshHome } from '../../src/config/home.ts'

test('DSH_HOME wins and is made absolute; unset or empty falls back to ~/.dsh', () => {
  assert.equal(dshHome({ DSH_HOME: '/srv/dsh' }, '/home/u'), '/srv/dsh')
  assert.equal(dshHome({ DSH_HOME: 'rel/dsh' }, '/home/u'), path.resolve('rel/dsh'))
  assert.equal(dshHome({}, '/home/u'), '/home/u/.dsh')
  assert.equal(dshHome({ DSH_HOME: '' }, '/home/u'), '/home/u/.dsh')
})
