import { readdir, readFile, writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import { defineConfig } from 'tsup';

// The engine's internal members (core/SessionCore.ts and the parts it wires), shortened in the
// published build: they are no API. Only names that no library, tab message or public type uses.
const internalMembers = [
  'core',
  'checks',
  'renewal',
  'tabSession',
  'snapshot',
  'listeners',
  'givenUserManager',
  'manager',
  'tabs',
  'sessionRecords',
  'epoch',
  'incoming',
  'freshSignIn',
  'disposed',
  'teardown',
  'adopt',
  'share',
  'bookSession',
  'signedIn',
  'endSession',
  'clearUser',
  'readStored',
  'userKey',
  'records',
  'withNamedLock',
  'refreshHold',
  'inBackForwardCache',
  'followSession',
  'heldElsewhere',
  'heldLock',
  'unrenewable',
  'notNewer',
  'lockName',
  'tell',
  'channelName',
  'holderOpen',
  'storageKey',
  'notify',
  'showIdle',
  'idleClock',
  'onIdleMessage',
  'pendingShare',
  'idleLoading',
  'endedAway',
  'ending',
  'toLand',
  'landSignedOut',
  'endedFor',
  'createUserManager',
  'renewing',
  'renewTimer',
  'renewRetries',
  'runRenew',
  'holdsLock',
  'noTabCanRenew',
  'renewThroughOtherTab',
  'renewHoldingLock',
  'currentFromOtherTab',
  'authorizeSilently',
  'scheduleRenewal',
  'scheduleRetry',
  'renewAt',
  'stopRenewing',
  'connect',
  'recheck',
  'restore',
  'isCurrent',
  'onTabMessage',
  'signingIn',
  'redirectWatch',
  'runSignIn',
  'watchRedirect',
  'stopWatching',
  'exchangeFresh',
  'beginSession',
  'processCallback',
  'cleanAddress',
  'signingOut',
  'runSignOut',
  'completeSignOut',
  'checkCallbackIssuer',
  'checkUser',
  'checkIdTokenOf',
  'holds',
  'setError',
  'act',
  'running',
  'arrive',
  'active',
  'activation',
  'activationSettled',
  'activate',
  'deactivate',
  'stopped',
  'answer',
  'leave',
  'guard',
  'parts',
  'sharing',
  'announce',
  'authState',
  'withCore',
  'loadedCore',
  'storedSession',
  'arrivalAt',
  'dpopDecided',
  'dpopOn',
  'proofs',
  'proofHeaders',
  'hasKey',
  'forgetKeys',
  'presenter',
  'nonces',
  'asksForNonce',
  'proving',
  'published',
  'publish',
  'refreshTokenOf',
  'hideRefreshTokens',
  'shownUsers',
  'heldTokens',
  'redirecting',
  'letGo',
  'watch',
  'forgetIncoming',
  'signIns',
  'storeInTurn',
  'storing',
  'userStorage',
  'storeUser',
  'refreshing',
  'oidcClient',
  'sharedMark',
  'checkAccessToken',
  'tooSoon',
  'holdOff',
  'heedingRetryAfter',
  'providerWait',
  'retryAfterHold',
  'watching',
  'startRequest',
  'settle',
  'renewed',
  'until',
  'inner',
  'refuses',
  'refusesProof',
  'refusedFresh',
  'renewedFor401',
  'timer',
  'users',
  'environment',
  'bound',
  'shared',
  'last',
  'undo',
  'remember',
  'overdue',
  'reading',
  'wall',
  'monotonic',
  'update',
  'input',
  'end',
  'missing',
  'enable',
  'setTrusted',
  'times',
  'owner',
  'selection',
  'selector',
  'authConfig',
];

export default defineConfig((options) => ({
  entry: {
    index: 'src/index.ts',
    'testing/index': 'src/testing/index.ts',
    'react-router/index': 'src/react-router/index.ts',
    'verify-signature/index': 'src/verify-signature/index.ts',
  },
  format: ['esm', 'cjs'],
  dts: true,
  // `npm run dev` builds first, then watches: keep dist/ while the app's dev server reads it.
  clean: !options.watch,
  target: 'es2022',
  // A last pass through Rollup: one import statement per package in each file (esbuild writes one
  // per source file, and an app's bundler keeps them all), and unused code dropped.
  treeshake: true,
  // Not 'browser': esbuild would then hard-code process.env.NODE_ENV as "development", and the
  // app's own bundler must decide it.
  platform: 'neutral',
  sourcemap: true,
  // The subpath entries import the main entry by name, so an app holds one copy of the React
  // context whichever entries it uses.
  external: [
    '@oidc-kit/react',
    'react',
    'react-dom',
    'oidc-client-ts',
    'jwt-decode',
    'react-router',
    'jose',
  ],
  // Bundling drops module-level directives; every entry renders or holds React state. The chunks
  // that only the engine's `import()` loads leave it out (see `lazyChunk`).
  onSuccess: () => addUseClient('dist'),
  esbuildOptions(esbuild) {
    esbuild.mangleProps = new RegExp(`^(${internalMembers.join('|')})$`);
  },
}));

/**
 * The chunks loaded only through the engine's `import()` (`core/loadEngine.ts`, `core/activate.ts`,
 * `core/TokenPresenter.ts`): client code already, as their importer is, so the directive would
 * only be bytes that an app's bundler (esbuild) keeps at the top of each of its lazy chunks.
 */
const lazyChunk = /^(engine|IdleClock|DPoP)-\w+\.js$/;

/**
 * Puts `'use client';` first in every built module but the lazy chunks (the Rollup pass drops a
 * banner directive), and moves its source map one line down to match.
 */
async function addUseClient(dir: string): Promise<void> {
  for (const entry of await readdir(dir, { withFileTypes: true })) {
    const path = join(dir, entry.name);
    if (entry.isDirectory()) {
      await addUseClient(path);
    } else if (/\.c?js$/.test(entry.name) && !lazyChunk.test(entry.name)) {
      const code = await readFile(path, 'utf8');
      if (code.startsWith("'use client';")) continue;
      await writeFile(path, `'use client';\n${code}`);
      const map = JSON.parse(await readFile(`${path}.map`, 'utf8')) as { mappings: string };
      map.mappings = `;${map.mappings}`;
      await writeFile(`${path}.map`, JSON.stringify(map));
    }
  }
}
