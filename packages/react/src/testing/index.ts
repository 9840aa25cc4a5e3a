export { createTestUser } from './createTestUser';
export type { TestUserOptions } from './createTestUser';
