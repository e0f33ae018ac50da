/** The user's locations as an environment names them: home, `$DSH_HOME`, an explicit override. */
import assert from 'node:assert/strict'
import os from 'node:os'
import { test } from 'node:test'
import { defaultLocations } from '../../src/files/locations.ts'

test('HOME and DSH_HOME from the environment; an override wins; the environment is kept for the guard', () => {
  const env = { HOME: '/home/u', DSH_HOME: '/srv/dsh' }
  assert.deepEqual(defaultLocations(env), { home: '/home/u', dshHome: '/srv/dsh', env })
  assert.equal(defaultLocations({ HOME: '/home/u' }).dshHome, '/home/u/.dsh')
  assert.equal(defaultLocations(env, { dshHome: '/x' }).dshHome, '/x')
  assert.equal(defaultLocations({}).home, os.homedir(), 'no HOME: the OS answer')
})
