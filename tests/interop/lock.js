// Drives the real npm proper-lockfile (4.1.2) on <workspace>/.memory/.lock with the options the
// reference MemoryStore uses. Test-only; see docs/testing.md.
//
//   node lock.js hold <workspace> <ms>   lock (10 ms retry loop, as the reference), print "locked", hold <ms>, unlock, print "released"
//   node lock.js try <workspace>         one attempt: print "acquired" (then unlock) or the error code
//   node lock.js hang <workspace>        lock, print "locked", then wait forever (to be SIGKILLed)
'use strict';

const path = require('path');
const fs = require('fs');
const lockfile = require('proper-lockfile');

const [mode, workspace, ms] = process.argv.slice(2);
const root = path.join(fs.realpathSync(workspace), '.memory');
const options = {
  stale: 30000,
  update: 10000,
  realpath: true,
  retries: 0,
  lockfilePath: path.join(root, '.lock'),
  onCompromised: (err) => {
    console.log(`compromised ${err.code || err.message}`);
    process.exit(3);
  },
};

// The reference wraps a single attempt (retries: 0) in its own 10 ms retry loop.
async function lockWithRetry() {
  for (;;) {
    try {
      return await lockfile.lock(root, options);
    } catch (err) {
      if (err.code !== 'ELOCKED') throw err;
      await new Promise((resolve) => setTimeout(resolve, 10));
    }
  }
}

async function main() {
  if (mode === 'try') {
    try {
      const release = await lockfile.lock(root, options);
      console.log('acquired');
      await release();
    } catch (err) {
      console.log(err.code || String(err));
    }
    return;
  }
  const release = await lockWithRetry();
  console.log('locked');
  if (mode === 'hang') {
    setInterval(() => {}, 1000);
    return;
  }
  await new Promise((resolve) => setTimeout(resolve, Number(ms)));
  await release();
  console.log('released');
}

main().catch((err) => {
  console.log(`error ${err.code || err.message}`);
  process.exit(2);
});
