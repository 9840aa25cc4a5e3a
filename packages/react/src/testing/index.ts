export { MockAuthProvider } from './MockAuthProvider';
export type { MockAuthProviderProps } from './MockAuthProvider';
export { createMockAuthClient } from './createMockAuthClient';
export type { MockAuthClient, MockAuthOptions, Spy } from './createMockAuthClient';
export { createTestUser } from './createTestUser';
export type { TestUserOptions } from './createTestUser';
export { withMockAuth } from './withMockAuth';
