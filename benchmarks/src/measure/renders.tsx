// Row 2: re-renders on renewal. 100 components read the user's name; the session is renewed 10
// times; every render of those components after the first mount is counted. No StrictMode (it
// renders each component twice) and no act(): React schedules and batches updates as it does in a
// browser, and each renewal is followed by a pause in which React commits what it scheduled.
import { Profiler, useEffect } from 'react';
import type { ComponentType, ReactElement } from 'react';
import { createRoot } from 'react-dom/client';
import type { Root } from 'react-dom/client';
import {
  AuthProvider,
  Authorized,
  RequireAuth,
  SignedIn,
  useAuth,
  useAuthState,
  useUser,
} from '@oidc-kit/react';
import type { AuthClient } from '@oidc-kit/react';
import { AuthProvider as OidcContextProvider, useAuth as useOidcContext } from 'react-oidc-context';
import type { AuthContextProps } from 'react-oidc-context';
import { passTokenFloor } from '../support/clock';
import { createUserManager, oidcKitTabs, startProvider, until } from '../support/fake';
import { job } from '../support/job';
import { readers, renewals, runs } from '../support/settings';
import { runScenarios } from '../support/stats';
import type { Counts } from '../support/stats';

const name = 'Alice Liddell';

function NameFromState() {
  const userName = useAuthState((state) => state.user?.profile.name);
  return <span>{userName}</span>;
}

function NameFromUser() {
  const user = useUser();
  return <span>{user?.name}</span>;
}

function NameFromUseAuth() {
  const { user } = useAuth();
  return <span>{user?.profile.name}</span>;
}

// A guarded and a templated piece of page: the guard and the templates count, not their children.
function GuardedName() {
  return (
    <RequireAuth roles={['user']}>
      <span>{name}</span>
    </RequireAuth>
  );
}

function TemplatedName() {
  return (
    <SignedIn>
      <Authorized roles={['user']}>
        <span>{name}</span>
      </Authorized>
    </SignedIn>
  );
}

function NameFromOidcContext() {
  const auth = useOidcContext();
  return <span>{auth.user?.profile.name}</span>;
}

// React's own instrumentation: a Profiler around each reader reports every commit in which that
// reader rendered (without StrictMode or interrupted renders, one per render).
let renders = 0;
const countRender = () => {
  renders += 1;
};

function Readers({ Reader }: { Reader: ComponentType }) {
  return (
    <>
      {Array.from({ length: readers }, (_, index) => (
        <Profiler key={index} id="reader" onRender={countRender}>
          <Reader />
        </Profiler>
      ))}
    </>
  );
}

/** Hands the hook's value out, as an app's component would use it. */
function Capture({ onAuth }: { onAuth: (auth: AuthContextProps) => void }) {
  const auth = useOidcContext();
  useEffect(() => onAuth(auth), [auth, onAuth]);
  return null;
}

let root: Root | undefined;
let container: HTMLElement | undefined;

function mount(element: ReactElement): void {
  container = document.body.appendChild(document.createElement('div'));
  root = createRoot(container);
  root.render(element);
}

function unmount(): void {
  root?.unmount();
  container?.remove();
  root = undefined;
}

function namesShown(shown: string): number {
  return [...(container?.querySelectorAll('span') ?? [])].filter(
    (span) => span.textContent === shown,
  ).length;
}

async function allShowName(shown = name): Promise<void> {
  await until(() => namesShown(shown) === readers, `every reader to show ${shown}`);
}

/** Lets React render and commit whatever the renewal scheduled. */
function settle(): Promise<void> {
  return new Promise((resolve) => setTimeout(resolve, 20));
}

/**
 * Ours. With `renamed`, the control: every renewal brings a new name, so every reader must
 * re-render, which shows that the counting sees the renders there are.
 */
async function oidcKit(Reader: ComponentType, renamed = false): Promise<Counts> {
  const observed = startProvider();
  const tabs = oidcKitTabs(observed.provider);
  try {
    const client: AuthClient = await tabs.signIn();
    let renames = 0;
    if (renamed) {
      observed.provider.options.idTokenClaims = (claims) => ({
        ...claims,
        name: `${name} ${(renames += 1)}`,
      });
    }
    mount(
      <AuthProvider client={client}>
        <Readers Reader={Reader} />
      </AuthProvider>,
    );
    await allShowName();
    renders = 0;
    const before = observed.refreshes();
    for (let index = 0; index < renewals; index += 1) {
      passTokenFloor();
      await client.renew();
      await settle();
    }
    await allShowName(renamed ? `${name} ${renewals}` : name);
    return { renders, refreshes: observed.refreshes() - before };
  } finally {
    unmount();
    tabs.dispose();
  }
}

async function oidcContext(renew: 'userManager' | 'hook'): Promise<Counts> {
  const observed = startProvider();
  const { userManager, authorizeUrl } = createUserManager(observed.provider);
  let auth: AuthContextProps | undefined;
  const capture = (value: AuthContextProps) => {
    auth = value;
  };
  try {
    // The page lands on the callback; react-oidc-context's provider processes it on mount.
    history.replaceState(null, '', await authorizeUrl());
    mount(
      <OidcContextProvider
        userManager={userManager}
        onSigninCallback={() => history.replaceState({}, '', '/')}
      >
        <Capture onAuth={capture} />
        <Readers Reader={NameFromOidcContext} />
      </OidcContextProvider>,
    );
    await allShowName();
    renders = 0;
    const before = observed.refreshes();
    for (let index = 0; index < renewals; index += 1) {
      // Automatic silent renew calls the UserManager; an app's own renewal goes through the hook.
      if (renew === 'userManager') await userManager.signinSilent();
      else await auth?.signinSilent();
      await settle();
    }
    await allShowName();
    return { renders, refreshes: observed.refreshes() - before };
  } finally {
    unmount();
    userManager.stopSilentRenew();
  }
}

export interface RenderResults {
  readers: number;
  renewals: number;
  iterations: number;
  scenarios: Awaited<ReturnType<typeof runScenarios>>;
}

void job('renders', async (): Promise<RenderResults> => {
  const scenarios = await runScenarios(
    {
      'oidc-kit useAuthState(name)': () => oidcKit(NameFromState),
      'oidc-kit useUser()': () => oidcKit(NameFromUser),
      'oidc-kit useAuth()': () => oidcKit(NameFromUseAuth),
      'oidc-kit RequireAuth (roles)': () => oidcKit(GuardedName),
      'oidc-kit SignedIn + Authorized (roles)': () => oidcKit(TemplatedName),
      'control: oidc-kit useAuthState(name), a new name on every renewal': () =>
        oidcKit(NameFromState, true),
      'react-oidc-context useAuth(), automatic renewal': () => oidcContext('userManager'),
      'react-oidc-context useAuth(), auth.signinSilent()': () => oidcContext('hook'),
    },
    runs.renders,
  );
  for (const [scenario, result] of Object.entries(scenarios)) {
    if (result.runs.some((run) => run.refreshes !== renewals)) {
      throw new Error(`${scenario}: not every renewal reached the provider`);
    }
    if (
      scenario.startsWith('control') &&
      result.runs.some((run) => run.renders !== readers * renewals)
    ) {
      throw new Error(`${scenario}: the counting missed renders (${JSON.stringify(result.runs)})`);
    }
  }
  return { readers, renewals, iterations: runs.renders, scenarios };
});
